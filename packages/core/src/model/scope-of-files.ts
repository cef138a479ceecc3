import { refsOf } from "./dependencies-of.js";
import { canonicalReference } from "./reference.js";
import type { Resource } from "./resource-schema.js";

const FIELDS = ["requires", "restartOn", "reloadOn"] as const;

/** Whether a service or timer is the user scope's (`user: true`); files and packages are not services. */
export function isUserUnit(resource: Resource): boolean {
  return (resource.type === "service" || resource.type === "timer") && resource.user === true;
}

/**
 * The Files a user-scope service or timer names (`requires`, `restartOn`, `reloadOn`), each with
 * the first resource that names it: they belong to the user scope, whatever their path. A user's
 * service and its configuration are applied by the same run, so a change to the file restarts
 * the service; were the file the system run's too (which writes every other file), the two runs
 * would each find the other's copy at the path, and neither would restart the service.
 */
export function userScopeFiles(resources: readonly (Resource | undefined)[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const resource of resources) {
    if (!resource || !isUserUnit(resource)) continue;
    for (const field of FIELDS) {
      for (const ref of refsOf(resource, field)) {
        const key = canonicalReference(ref);
        if (key?.startsWith("file:") && !files.has(key)) files.set(key, `${resource.type}:${resource.name}`);
      }
    }
  }
  return files;
}
