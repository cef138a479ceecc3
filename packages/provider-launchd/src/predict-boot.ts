import type { BootPrediction } from "@tend/core/contract";
import { keepsProcess } from "./keeps-process.js";
import type { LaunchdJob } from "./launchd-job.js";
import type { PlistDict } from "./serialize-plist.js";

/**
 * Boot truth on launchd: at boot it loads the system domain's plists (LaunchAgents load at login,
 * not at boot), skips a label with a `disabled` override, and starts a loaded job only with
 * `RunAtLoad` or `KeepAlive`. Undefined when the overrides could not be read.
 */
export function predictBoot(job: LaunchdJob, plist: PlistDict, fileExists: boolean, disabled: boolean | undefined): BootPrediction | undefined {
  if (!fileExists) return { starts: false, why: `${job.path} is gone, so launchd does not load it at boot` };
  if (job.domain !== "system") return { starts: false, why: `it is a LaunchAgent in ${job.domain}, loaded when its user logs in, not at boot` };
  if (disabled === undefined) return undefined;
  if (disabled) return { starts: false, why: `a disabled override keeps launchd from loading it (launchctl enable ${job.target})` };
  if (plist.RunAtLoad === true || keepsProcess(plist)) return { starts: true };
  // A conditional KeepAlive (a path, a network state) starts it when its condition holds.
  if (typeof plist.KeepAlive === "object") return undefined;
  return { starts: false, why: "its plist has neither RunAtLoad nor KeepAlive: launchd loads it at boot without starting it" };
}
