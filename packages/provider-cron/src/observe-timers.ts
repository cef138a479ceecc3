import { nextFirings, parseSchedule, type Observation, type ReadContext, type Resource, type Timer } from "@tend/core/contract";
import type { CrontabBlockStore } from "./crontab-block-store.js";
import { cronFilePath } from "./render-cron-file.js";
import { CRON_NOT_RUNNING, runningCron } from "./running-cron.js";
import { staleZoneWarning } from "./stale-zone.js";

/**
 * What cron can tell about timers: only whether each one's entry is there (cron keeps no state a
 * tool can ask for, and has nothing to enable or start). `state` and `enabled` stay undefined, so
 * they never count as drift; an edited entry is the core's file drift. One `crontab -l` per user.
 */
export async function observeTimers(
  resources: Resource[],
  ctx: ReadContext,
  store: CrontabBlockStore,
  now: Date,
): Promise<Map<string, Observation>> {
  const observed = new Map<string, Observation>();
  const timers = resources.filter((r): r is Timer => r.type === "timer");
  const users = new Set(timers.filter((t) => t.user).map(() => userOf(ctx)));
  const blocks = new Map<string, Map<string, string>>();
  for (const user of users) blocks.set(user, await store.blocksOf(user, ctx));
  // Warnings are for a plan: an apply's check after its changes asks only for what it compares.
  const cron = timers.length > 0 && ctx.purpose !== "check" ? await runningCron(ctx) : undefined;
  const warning = cron === null ? CRON_NOT_RUNNING : await staleZoneWarning(ctx, cron);
  for (const timer of timers) {
    const where = timer.user ? `crontab of ${userOf(ctx)}` : cronFilePath(timer.name);
    const exists = timer.user ? (blocks.get(userOf(ctx))?.has(timer.name) ?? false) : await ctx.files.exists(where);
    const next = nextRun(timer.schedule, now);
    observed.set(`timer:${timer.name}`, {
      exists,
      details: { cron: where, schedule: timer.schedule, ...(next ? { next: next.toISOString() } : {}) },
      ...(warning ? { warnings: [warning] } : {}),
    });
  }
  return observed;
}

/** The user whose crontab holds this run's user timers. */
export function userOf(ctx: { scope: ReadContext["scope"]; host: ReadContext["host"] }): string {
  return ctx.scope.kind === "user" ? ctx.scope.user : ctx.host.user;
}

function nextRun(schedule: string, now: Date): Date | undefined {
  try {
    return nextFirings(parseSchedule(schedule), now, 1)[0];
  } catch {
    return undefined; // check() has already refused such a schedule at plan time
  }
}
