import { dependenciesOf } from "../model/dependencies-of.js";
import type { PlanEntry } from "../plan/plan-types.js";

/**
 * Splits the entries an apply adds or changes (in dependency order) into the stages apply runs
 * one after the other. An entry that `waits` (a File given to a user a package in this apply
 * makes: postgresql's `postgres`) and everything that comes after it go to a second stage, whose
 * files are written once the first stage's packages are installed. Everything else is the first
 * stage, and all there is when nothing waits: a config file a package would also install is
 * still written before it, and dpkg keeps it (`--force-confold`). One pass, as the input order
 * is topological.
 */
export function installStages(entries: PlanEntry[], waits: (entry: PlanEntry) => boolean): PlanEntry[][] {
  const later = new Set<string>();
  const first: PlanEntry[] = [];
  const second: PlanEntry[] = [];
  for (const entry of entries) {
    if (waits(entry) || dependenciesOf(entry.resource).some((dep) => later.has(dep))) {
      later.add(entry.key);
      second.push(entry);
    } else {
      first.push(entry);
    }
  }
  return second.length > 0 ? [first, second] : [first];
}
