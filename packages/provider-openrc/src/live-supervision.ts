import type { HostFiles } from "@tend/core/contract";
import { parsePid } from "./read-daemon.js";
import { backgroundPidfile, type Supervision } from "./supervision.js";

/**
 * Who keeps a tend service's process now, as the host's records show it: supervise-daemon's own
 * pidfile (`/run/supervise-<name>.pid`, OpenRC's default for a supervised service), or the pidfile
 * of a background daemon, naming a live process. Undefined when neither does. Not the script's
 * word: an apply killed after it wrote a script with the other supervision, before it restarted
 * the service, leaves the process the old script started, which the new script's stop would miss
 * (a restart would then start a second copy beside it).
 */
export async function liveSupervision(files: HostFiles, script: string): Promise<Supervision | undefined> {
  if (await livePid(files, supervisorPidfile(script))) return "supervise-daemon";
  if (await livePid(files, backgroundPidfile(script))) return "start-stop-daemon";
  return undefined;
}

/** Where supervise-daemon keeps its own pid for a service whose script names no pidfile. */
export function supervisorPidfile(script: string): string {
  return `/run/supervise-${script}.pid`;
}

async function livePid(files: HostFiles, pidfile: string): Promise<boolean> {
  const pid = parsePid(await files.readFile(pidfile));
  return pid !== undefined && (await files.exists(`/proc/${pid}`));
}
