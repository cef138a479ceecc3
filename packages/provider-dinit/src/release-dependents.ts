import type { ApplyContext } from "@tend/core/contract";
import type { Dinitctl } from "./dinitctl.js";
import { findDescription } from "./find-description.js";
import type { ListResult } from "./list-services.js";
import { parseServiceDescription, type FixedDependency } from "./parse-service-description.js";
import { runDinitctl, UNLOADABLE } from "./run-dinitctl.js";

/** dinitctl's answers when the dependency is already gone, or the dependent no longer loaded. */
const GONE = new RegExp(`no such dependency to remove|service not loaded|${UNLOADABLE}`);

/** A loaded tend service's dependency on one the wave removes: `dinitctl rm-dep TYPE DEPENDENT NAME`. */
export interface HeldBy extends FixedDependency {
  dependent: string;
}

/**
 * For a wave of removals: which other tend services dinit holds loaded depend on each removed
 * one, read once from their descriptions (one read per loaded tend service, however many go).
 */
export async function dependentsOfRemoved(removing: Set<string>, listed: ListResult, ctx: ApplyContext): Promise<Map<string, HeldBy[]>> {
  const held = new Map<string, HeldBy[]>();
  if (!listed.ok || removing.size === 0) return held;
  for (const dependent of listed.services.keys()) {
    if (removing.has(dependent) || !dependent.startsWith("tend-")) continue;
    const found = await findDescription(dependent, ctx.scope, ctx.files);
    if (!found) continue;
    for (const dependency of parseServiceDescription(found.text).dependencies) {
      if (!removing.has(dependency.name)) continue;
      const list = held.get(dependency.name);
      if (list) list.push({ ...dependency, dependent });
      else held.set(dependency.name, [{ ...dependency, dependent }]);
    }
  }
  return held;
}

/**
 * Before a tend service is stopped for its removal: the other tend services that depend on it
 * (see dependentsOfRemoved) let go of it (`dinitctl rm-dep`), so that they run on. The spec no
 * longer declares those dependencies (plan refuses one on a service the spec removes), and their
 * new descriptions are written and loaded by this same apply. Without it, `stop --force` stops
 * them, and everything that comes after them, and nothing starts those again: the services apply
 * does not change stay stopped. Services that are not tend's keep their dependency, and are
 * stopped with it.
 */
export async function releaseDependents(held: HeldBy[], dinitctl: Dinitctl, ctx: ApplyContext): Promise<void> {
  for (const { type, dependent, name } of held) await runDinitctl(ctx, dinitctl, ["rm-dep", type, dependent, name], { benign: GONE });
}
