import { dependenciesOf } from "../model/dependencies-of.js";
import type { PlanEntry } from "../plan/plan-types.js";

/**
 * Splits the entries an apply adds or changes (in dependency order) into stages at each package
 * among them, which apply installs, upgrades or removes: an entry goes one stage after any such package it depends on, directly or through
 * others, so its files are written once the package is there (a File owned by the user the
 * package makes, a config file in a folder it makes). Everything else stays in the first stage,
 * which is all there is when no entry depends on a package being installed. One pass, as the
 * input order is topological.
 */
export function installStages(entries: PlanEntry[]): PlanEntry[][] {
  const stage = new Map<string, number>();
  const stages: PlanEntry[][] = [[]];
  const packages = new Set(entries.filter((entry) => entry.resource.type === "package").map((entry) => entry.key));
  for (const entry of entries) {
    let level = 0;
    for (const dep of dependenciesOf(entry.resource)) {
      const before = stage.get(dep);
      if (before !== undefined) level = Math.max(level, before + (packages.has(dep) ? 1 : 0));
    }
    stage.set(entry.key, level);
    (stages[level] ??= []).push(entry);
  }
  return stages.filter((list, index) => index === 0 || list.length > 0);
}
