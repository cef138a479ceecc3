import { processStartedAt, type ReadContext } from "@tend/core/contract";
import type { RunningCron } from "./running-cron.js";

/** What a change of the host's time zone rewrites: the link (timedatectl, `ln -sf`) and Debian's name file. */
const ZONE_FILES = ["/etc/localtime", "/etc/timezone"];
/** Boot time is in whole seconds, and so is a fleet host's modification time. */
const SLACK_MS = 2000;

/**
 * A warning for the host's timers when the running cron daemon (runningCron) started before the
 * time zone last changed: cron takes the zone when it starts, and fires every job in the old one
 * until it is restarted. Undefined when no cron runs, or when the host cannot tell.
 */
export async function staleZoneWarning(ctx: ReadContext, cron: RunningCron | null | undefined): Promise<string | undefined> {
  const modifiedAt = ctx.files.modifiedAt?.bind(ctx.files);
  if (!cron || !modifiedAt) return undefined;
  const procStat = await ctx.files.readFile("/proc/stat");
  if (!procStat) return undefined;
  const started = processStartedAt(cron.stat, procStat);
  if (started === undefined) return undefined;
  const changed = Math.max(...(await Promise.all(ZONE_FILES.map((file) => modifiedAt(file)))).map((t) => t ?? -Infinity));
  if (changed <= started + SLACK_MS) return undefined;
  return `cron (pid ${cron.pid}) started before the time zone changed (${new Date(changed).toISOString()}): it fires timers in the zone it started with until it is restarted`;
}
