import type { HostFiles } from "@tend/core/contract";
import { liveSupervision } from "./live-supervision.js";
import { parsePid } from "./read-daemon.js";
import { backgroundPidfile } from "./supervision.js";

/**
 * Whether OpenRC's records of a tend service name no process at all: no `child_pid` of
 * supervise-daemon's, no live supervise-daemon, no background daemon's pidfile. A supervised
 * service's stop ends the program and removes those records (`supervise-daemon --stop`) before
 * openrc-run records the service stopped; a stop cut off in between leaves OpenRC counting it
 * started with nothing behind it. `rc-status` then says `started`, and its `stop` fails ("failed
 * to stop"), so a restart does too.
 */
export async function recordsNoProcess(files: HostFiles, script: string): Promise<boolean> {
  if (parsePid(await files.readFile(`/run/openrc/options/${script}/child_pid`)) !== undefined) return false;
  if (await files.exists(backgroundPidfile(script))) return false;
  return (await liveSupervision(files, script)) === undefined;
}

/** OpenRC counts the service started (its link in /run/openrc/started) while its records name no process: see {@link recordsNoProcess}. */
export async function startedWithoutProcess(files: HostFiles, script: string): Promise<boolean> {
  return (await files.exists(`/run/openrc/started/${script}`)) && (await recordsNoProcess(files, script));
}
