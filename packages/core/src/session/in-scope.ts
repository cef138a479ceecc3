import type { Scope } from "../contract/host.js";
import type { Resource } from "../model/resource-schema.js";

/**
 * Whether a run in `scope` manages the resource: services and timers by their `user` flag;
 * files by where they live (a user run writes only inside the user's home); packages are the
 * system's.
 */
export function inScope(resource: Resource, scope: Scope): boolean {
  if (resource.type === "file") {
    if (scope.kind === "system") return true;
    return resource.path.startsWith(`${scope.home}/`);
  }
  if (resource.type === "package") return scope.kind === "system";
  return Boolean(resource.user) === (scope.kind === "user");
}
