import type { Resource } from "./resource-schema.js";
import { isServiceAfter } from "./after-entries.js";
import { canonicalReference } from "./reference.js";

/** The resources a resource references (`requires`, `restartOn`, `reloadOn`). */
export function refsOf(resource: Resource, field: "requires" | "restartOn" | "reloadOn"): string[] {
  return ((resource as Record<string, unknown>)[field] as string[] | undefined) ?? [];
}

/** Edges for ordering and cycle detection: requires, restartOn, reloadOn and `after` services. */
export function dependenciesOf(resource: Resource): string[] {
  const deps = [...refsOf(resource, "requires"), ...refsOf(resource, "restartOn"), ...refsOf(resource, "reloadOn")].map(
    (ref) => canonicalReference(ref)!,
  );
  if (resource.type === "service") {
    for (const entry of resource.after ?? []) if (isServiceAfter(entry)) deps.push(`service:${entry}`);
  }
  return [...new Set(deps)];
}
