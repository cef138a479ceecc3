import type { Service } from "@tend/core/contract";

/**
 * Who keeps a tend service's process: `supervise-daemon` for `restart = "on_failure"` and
 * `"always"`, start-stop-daemon with `command_background` for `"no"` (the seed's table).
 * supervise-daemon restarts the program on any exit, so on OpenRC `on_failure` behaves as
 * `always`: the seed says so, and OpenRC has no supervisor that tells the two apart.
 */
export type Supervision = "supervise-daemon" | "start-stop-daemon";

export function supervisionOf(service: Service): Supervision {
  return service.restart === "on_failure" || service.restart === "always" ? "supervise-daemon" : "start-stop-daemon";
}

/**
 * Who keeps the process a tend script on disk starts: what to read a running service's pid from.
 * The script's, not the spec's: after an edit of `restart` the running process is still the one
 * the old script started, until apply restarts it.
 */
export function scriptSupervision(text: string): Supervision {
  return /^supervisor=supervise-daemon$/m.test(text) ? "supervise-daemon" : "start-stop-daemon";
}

/** Where a `command_background` service's pid is kept (`pidfile="/run/${RC_SVCNAME}.pid"`). */
export function backgroundPidfile(script: string): string {
  return `/run/${script}.pid`;
}

/** Where a supervised tend service's output goes (`output_log` and `error_log`). */
export function serviceLogPath(script: string): string {
  return `/var/log/${script}.log`;
}
