import type { Scope } from "../contract/host.js";
import type { Resource } from "../model/resource-schema.js";

/**
 * Whether a run in `scope` manages the resource: services and timers by their `user` flag;
 * a File a user service or timer names (`userFiles`, see userScopeFiles) by the user's run;
 * other files by where they live (a user run writes only inside the user's home); packages are
 * the system's.
 */
export function inScope(resource: Resource, scope: Scope, userFiles: ReadonlyMap<string, string> = new Map()): boolean {
  if (resource.type === "file") {
    if (userFiles.has(`file:${resource.name}`)) return scope.kind === "user";
    if (scope.kind === "system") return true;
    return resource.path.startsWith(`${scope.home}/`);
  }
  if (resource.type === "package") return scope.kind === "system";
  return Boolean(resource.user) === (scope.kind === "user");
}
