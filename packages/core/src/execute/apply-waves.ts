import { dependenciesOf } from "../model/dependencies-of.js";
import type { PlanEntry } from "../plan/plan-types.js";

/**
 * Splits entries (in dependency order) into waves: each entry goes one wave after the latest
 * of its dependencies among them, so nothing in a wave depends on anything else in it and one
 * init command can carry a whole wave. One pass, as the input order is already topological.
 */
export function applyWaves(entries: PlanEntry[]): PlanEntry[][] {
  const depth = new Map<string, number>();
  const waves: PlanEntry[][] = [];
  for (const entry of entries) {
    let level = 0;
    for (const dep of dependenciesOf(entry.resource)) {
      const before = depth.get(dep);
      if (before !== undefined) level = Math.max(level, before + 1);
    }
    depth.set(entry.key, level);
    (waves[level] ??= []).push(entry);
  }
  return waves.filter(Boolean);
}
