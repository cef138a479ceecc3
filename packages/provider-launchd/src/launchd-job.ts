import { errors, type HostFacts, type Resource, type Scope } from "@tend/core/contract";

/** Where a service or timer lives in launchd: its label, its plist and its domain. */
export interface LaunchdJob {
  /** `tend.<name>`. */
  label: string;
  /** `/Library/LaunchDaemons/tend.<name>.plist` or `~/Library/LaunchAgents/tend.<name>.plist`. */
  path: string;
  /** `system`, or `gui/<uid>` for a user job. */
  domain: string;
  /** `<domain>/<label>`, the service target launchctl takes. */
  target: string;
}

type JobResource = Extract<Resource, { type: "service" | "timer" }>;

export function jobLabel(name: string): string {
  return `tend.${name}`;
}

/** The plist path, from facts alone (render is pure): LaunchDaemons, or the user's LaunchAgents. */
export function jobPath(resource: JobResource, scope: Scope, host: HostFacts): string {
  const file = `${jobLabel(resource.name)}.plist`;
  if (!resource.user) return `/Library/LaunchDaemons/${file}`;
  const home = scope.kind === "user" ? scope.home : host.home;
  return `${home}/Library/LaunchAgents/${file}`;
}

/**
 * The whole placement, for commands. A user job loads into the GUI domain of the scope's user,
 * so it needs a user scope (a system run never handles `user: true` resources).
 */
export function launchdJob(resource: JobResource, scope: Scope, host: HostFacts): LaunchdJob {
  const label = jobLabel(resource.name);
  let domain = "system";
  if (resource.user) {
    if (scope.kind !== "user") {
      throw errors.usage(`${resource.type}:${resource.name} is a user ${resource.type}; manage it in a user run (--user)`, {
        resource: `${resource.type}:${resource.name}`,
        field: "user",
      });
    }
    domain = `gui/${scope.uid}`;
  }
  return { label, path: jobPath(resource, scope, host), domain, target: `${domain}/${label}` };
}
