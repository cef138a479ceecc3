import type { HostFiles } from "@tend/core/contract";
import { backgroundPidfile, type Supervision } from "./supervision.js";

/** The process behind a started service, as OpenRC recorded it. */
export interface DaemonReading {
  pid?: number;
  /** Whether /proc has the pid; undefined when there is no pid to look at. */
  alive?: boolean;
}

/**
 * Reads the pid OpenRC keeps for a service, without running anything: supervise-daemon's
 * `child_pid` in /run/openrc/options/<name>/ (rewritten at every respawn), or the pidfile a
 * start-stop-daemon service was started with. This matters on Debian, whose (dpkg)
 * start-stop-daemon records nothing for OpenRC: a background daemon that died still reads
 * `started` there, and only its pid tells.
 */
export async function readDaemon(files: HostFiles, script: string, supervision: Supervision | undefined): Promise<DaemonReading> {
  const options = `/run/openrc/options/${script}`;
  let pid: number | undefined;
  if (supervision === "supervise-daemon") {
    pid = parsePid(await files.readFile(`${options}/child_pid`));
  } else if (supervision === "start-stop-daemon") {
    pid = parsePid(await files.readFile(backgroundPidfile(script)));
  } else {
    // A distro script: supervised when supervise-daemon left its records, else its pidfile.
    pid = parsePid(await files.readFile(`${options}/child_pid`));
    if (pid === undefined && !(await files.exists(`${options}/start_count`))) {
      const pidfile = (await files.readFile(`${options}/pidfile`))?.trim();
      if (pidfile?.startsWith("/")) pid = parsePid(await files.readFile(pidfile));
    }
  }
  if (pid === undefined) return {};
  return { pid, alive: await files.exists(`/proc/${pid}`) };
}

/** A pid written to a file, or undefined when the file holds none. */
export function parsePid(text: string | null): number | undefined {
  const value = text?.trim();
  return value && /^[1-9][0-9]*$/.test(value) ? Number(value) : undefined;
}
