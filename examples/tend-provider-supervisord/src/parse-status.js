// @ts-check

/**
 * One line of `supervisorctl status`: `tend-web   RUNNING   pid 81, uptime 0:00:02`. `state` is
 * supervisord's own (STOPPED, STARTING, RUNNING, BACKOFF, STOPPING, EXITED, FATAL, UNKNOWN).
 * @typedef {{ state: string; pid?: number; description: string; line: string; started: boolean }} ProgramStatus
 */

/** States in which supervisord keeps (or keeps trying to keep) the program running. */
const ACTIVE = new Set(["STARTING", "RUNNING", "BACKOFF"]);

/**
 * Reads `supervisorctl status` (every program) into statuses by name. A program supervisord has
 * never started since it was added says `STOPPED   Not started` (`started` false).
 */
export function parseStatus(/** @type {string} */ stdout) {
  /** @type {Map<string, ProgramStatus>} */
  const statuses = new Map();
  for (const line of stdout.split("\n")) {
    const match = /^(\S+)\s+([A-Z]+)(?:\s+(.*?))?\s*$/.exec(line);
    if (!match) continue;
    const [, name, state, description = ""] = match;
    if (name === undefined || state === undefined) continue;
    const pid = state === "RUNNING" ? /^pid (\d+),/.exec(description)?.[1] : undefined;
    statuses.set(name, {
      state,
      ...(pid === undefined ? {} : { pid: Number(pid) }),
      description,
      line: line.trimEnd(),
      started: !(state === "STOPPED" && description === "Not started"),
    });
  }
  return statuses;
}

/** Whether supervisord runs the program or is bringing it up (observation's `running`). */
export function isActive(/** @type {ProgramStatus | undefined} */ status) {
  return status !== undefined && ACTIVE.has(status.state);
}
