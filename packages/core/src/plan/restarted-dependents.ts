import type { Capabilities } from "../contract/capabilities.js";
import type { Operation } from "../contract/change.js";
import { desiredOf } from "./desired-of.js";
import { definitionChanged, type PlanEntry } from "./plan-types.js";

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
    const provider = providers.get(entry.key);
    if (!provider || !carries(entry, provider.dependentsRestart)) continue;
    const named: string[] = [];
    const seen = new Set([entry.key]);
    const queue = [entry.key];
    for (let next = 0; next < queue.length; next += 1) {
      for (const dependent of dependents.get(queue[next]!) ?? []) {
        if (seen.has(dependent.key) || providers.get(dependent.key)?.name !== provider.name || !runsOn(dependent)) continue;
        seen.add(dependent.key);
        if (!dependent.ops.some((op) => op === "start" || op === "stop" || op === "restart")) named.push(dependent.key);
        // One whose own restart carries over names what comes after it itself: a chain of
        // services that all restart costs one step each, not the rest of the chain each.
        if (!carries(dependent, provider.dependentsRestart)) queue.push(dependent.key);
      }
    }
    if (named.length > 0) entry.alsoRestarts = named;
  }
}

/** Whether the init's restart of this entry's service restarts what comes after it too. */
function carries(entry: PlanEntry, mode: PlanProvider["dependentsRestart"]): boolean {
  if (mode === undefined || !entry.ops.includes("restart")) return false;
  return mode === "always" || definitionChanged(entry);
}

/** A service that runs now and is to keep running. */
function runsOn(entry: PlanEntry): boolean {
  return entry.resource.type === "service" && entry.observation?.state === "running" && desiredOf(entry.resource).state !== "stopped";
}
