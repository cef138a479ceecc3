import type { ReadContext } from "@tend/core/contract";

/** Where Debian's cron and cronie note their pid. */
const PID_FILES = ["/run/crond.pid", "/var/run/crond.pid"];
/** A cron daemon's /proc/PID/stat, not a zombie's: its name, then its state. */
const LIVE_CRON = /^\d+ \((?:cron|crond)\) [^Z]/;

/** A cron daemon running on the host: its pid and its /proc/PID/stat. */
export interface RunningCron {
  pid: string;
  stat: string;
}

/**
 * The cron daemon running on the host: the process its pid file names, when that is a live cron
 * or crond (a pid file a cron that is gone left names another program, or nothing); on the host
 * tend runs on, else one found in /proc (a cron that lost its pid file). null when none runs;
 * undefined in an image root, where nothing runs.
 */
export async function runningCron(ctx: ReadContext): Promise<RunningCron | null | undefined> {
  if (ctx.root !== undefined) return undefined;
  for (const file of PID_FILES) {
    const pid = /^\s*(\d+)\s*$/.exec((await ctx.files.readFile(file)) ?? "")?.[1];
    const stat = pid ? await ctx.files.readFile(`/proc/${pid}/stat`) : null;
    if (pid && stat && LIVE_CRON.test(stat)) return { pid, stat };
  }
  // Over ssh each read is a round trip: a fleet host is judged by its pid file alone.
  if (!ctx.files.local) return null;
  for (const pid of (await ctx.files.readDir("/proc")) ?? []) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await ctx.files.readFile(`/proc/${pid}/stat`);
    if (stat && LIVE_CRON.test(stat)) return { pid, stat };
  }
  return null;
}

/** The warning each timer carries on a live host where no cron daemon runs. */
export const CRON_NOT_RUNNING = "no cron daemon is running here: the timer is in place, but nothing runs it until cron does (start cron, and have it start at boot)";
