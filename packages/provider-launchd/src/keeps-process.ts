import type { PlistDict } from "./serialize-plist.js";

/**
 * Whether launchd keeps a process running for this job, so that "running" means it has a pid:
 * `KeepAlive = true`, or the `SuccessfulExit` form tend writes for `restart = "on_failure"`.
 * Any other job (run once at load, `StartInterval`, `WatchPaths`, a conditional `KeepAlive`) has
 * no steady process: between runs it is loaded and idle, which is its converged state.
 */
export function keepsProcess(plist: PlistDict): boolean {
  const keepAlive = plist.KeepAlive;
  if (keepAlive === true) return true;
  if (typeof keepAlive !== "object" || keepAlive === null || Array.isArray(keepAlive)) return false;
  const keys = Object.keys(keepAlive);
  return keys.length === 1 && keys[0] === "SuccessfulExit" && typeof keepAlive.SuccessfulExit === "boolean";
}
