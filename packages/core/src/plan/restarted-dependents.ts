import type { Capabilities } from "../contract/capabilities.js";
import type { Operation } from "../contract/change.js";
import { desiredOf } from "./desired-of.js";
import { changesContent, type PlanEntry } from "./plan-types.js";

/** What the plan knows of the provider of a resource. */
export interface PlanProvider {
  name: string;
  /** The operations it refuses for the resource (see ProviderDefinition.refusedOperations). */
  refused: Operation[];
  dependentsRestart?: NonNullable<Capabilities["service"]>["dependentsRestart"];
}

/**
 * Sets `alsoRestarts` on each entry whose restart the init carries over to the running services
 * that come after it (the provider's `dependentsRestart` capability), and to theirs in turn: those
 * of its provider that run now, are to run, and have no start, stop or restart of their own in
 * this plan (those are verified anyway). Nothing runs under --root, so nothing is named there.
 */
export function noteRestartedDependents(entries: readonly PlanEntry[], providers: ReadonlyMap<string, PlanProvider>): void {
  const dependents = new Map<string, PlanEntry[]>();
  for (const entry of entries) {
    if (entry.resource.type !== "service" || entry.action === "remove") continue;
    for (const name of entry.resource.after ?? []) {
      const list = dependents.get(`service:${name}`) ?? [];
      list.push(entry);
      dependents.set(`service:${name}`, list);
    }
  }
  if (dependents.size === 0) return;
  for (const entry of entries) {
    if (!entry.ops.includes("restart")) continue;
    const provider = providers.get(entry.key);
    const mode = provider?.dependentsRestart;
    if (mode === undefined) continue;
    if (mode === "definition" && !entry.staleDefinition && !entry.writes.some(changesContent)) continue;
    const named: string[] = [];
    const seen = new Set([entry.key]);
    const queue = [entry.key];
    while (queue.length > 0) {
      for (const dependent of dependents.get(queue.shift()!) ?? []) {
        if (seen.has(dependent.key) || providers.get(dependent.key)?.name !== provider!.name || !runsOn(dependent)) continue;
        seen.add(dependent.key);
        queue.push(dependent.key);
        if (!dependent.ops.some((op) => op === "start" || op === "stop" || op === "restart")) named.push(dependent.key);
      }
    }
    if (named.length > 0) entry.alsoRestarts = named;
  }
}

/** A service that runs now and is to keep running. */
function runsOn(entry: PlanEntry): boolean {
  return entry.resource.type === "service" && entry.observation?.state === "running" && desiredOf(entry.resource).state !== "stopped";
}
