import type { Resource } from "../model/resource-schema.js";
import { dependenciesOf } from "../model/dependencies-of.js";

/**
 * Dependency order (what a resource requires, restarts on, reloads on or starts after comes
 * first), stable in spec order otherwise. Dependencies outside the list are ignored.
 */
export function orderResources<T extends { key: string; resource: Resource }>(items: T[]): T[] {
  const byKey = new Map(items.map((item) => [item.key, item]));
  const done = new Set<string>();
  const out: T[] = [];
  const visit = (item: T, trail: Set<string>) => {
    if (done.has(item.key) || trail.has(item.key)) return;
    trail.add(item.key);
    for (const dep of dependenciesOf(item.resource)) {
      const next = byKey.get(dep);
      if (next) visit(next, trail);
    }
    done.add(item.key);
    out.push(item);
  };
  for (const item of items) visit(item, new Set());
  return out;
}
