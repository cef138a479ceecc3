import type { HostFiles } from "../contract/context.js";
import type { Observation } from "../contract/observation.js";
import type { Resource } from "../model/resource-schema.js";
import { replacedCode } from "./replaced-code.js";
import { runningPid } from "./running-pid.js";

/**
 * Stale builds: for every running service whose init reports its main process, what that
 * process runs from files since replaced or deleted (`running a replaced /usr/sbin/nginx`), by
 * resource key. Read through /proc, one file per running service; a service with
 * `restartOnUpgrade: false` is not looked at, and a process that is gone or not readable
 * (another user's, a host without /proc) counts as nothing found.
 */
export async function findReplacedCode(resources: Resource[], observations: Map<string, Observation>, files: HostFiles): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  // Every service's reads at once: on a remote host they share round trips.
  await Promise.all(
    resources.map(async (resource) => {
      if (resource.type !== "service" || resource.restartOnUpgrade === false) return;
      const key = `service:${resource.name}`;
      const observation = observations.get(key);
      const pid = runningPid(observation);
      if (pid === undefined) return;
      const maps = await files.readFile(`/proc/${pid}/maps`).catch(() => null);
      if (maps === null) return;
      const paths = replacedCode(maps);
      if (paths.length === 0) return;
      const present = await Promise.all(paths.map((path) => files.exists(path).catch(() => false)));
      found.set(key, paths.map((path, i) => `running a ${present[i] ? "replaced" : "deleted"} ${path}`));
    }),
  );
  return found;
}
