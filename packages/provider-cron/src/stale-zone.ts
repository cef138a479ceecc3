import { processStartedAt, type ReadContext } from "@tend/core/contract";

/** Where Debian's cron and cronie note their pid. */
const PID_FILES = ["/run/crond.pid", "/var/run/crond.pid"];
/** What a change of the host's time zone rewrites: the link (timedatectl, `ln -sf`) and Debian's name file. */
const ZONE_FILES = ["/etc/localtime", "/etc/timezone"];
/** Boot time is in whole seconds, and so is a fleet host's modification time. */
const SLACK_MS = 2000;

/**
 * A warning for the host's timers when the running cron daemon started before the time zone last
 * changed: cron takes the zone when it starts, and fires every job in the old one until it is
 * restarted. Undefined in an image root, when no cron runs, or when the host cannot tell.
 */
export async function staleZoneWarning(ctx: ReadContext): Promise<string | undefined> {
  const modifiedAt = ctx.files.modifiedAt?.bind(ctx.files);
  if (ctx.root !== undefined || !modifiedAt) return undefined;
  let pid: string | undefined;
  for (const file of PID_FILES) {
    pid = /^\s*(\d+)\s*$/.exec((await ctx.files.readFile(file)) ?? "")?.[1];
    if (pid) break;
  }
  if (!pid) return undefined;
  const [pidStat, procStat] = await Promise.all([ctx.files.readFile(`/proc/${pid}/stat`), ctx.files.readFile("/proc/stat")]);
  // A pid file left by a cron that is gone names another program, or nothing.
  if (!pidStat || !procStat || !/^\d+ \((cron|crond)\) /.test(pidStat)) return undefined;
  const started = processStartedAt(pidStat, procStat);
  if (started === undefined) return undefined;
  const changed = Math.max(...(await Promise.all(ZONE_FILES.map((file) => modifiedAt(file)))).map((t) => t ?? -Infinity));
  if (changed <= started + SLACK_MS) return undefined;
  return `cron (pid ${pid}) started before the time zone changed (${new Date(changed).toISOString()}): it fires timers in the zone it started with until it is restarted`;
}
