import { errors, type ApplyContext } from "@tend/core/contract";
import type { SvStatus } from "./parse-sv-status.js";
import { readSvStatus } from "./read-sv-status.js";
import { svBatch, type SvTarget } from "./sv-batch.js";

/** Waits between readings: short at first (runsv starts the new process within milliseconds), then every 50 ms. */
const POLL_MS = [10, 20, 40, 50];
/** Polls for 7 s, as long as `sv restart` itself waits by default. */
const WAIT_MS = 7_000;

/**
 * Restarts services whose `./finish` leaves them wanted up, and resolves once each runs a process
 * it did not run before. `sv restart` would wait too, but it checks only every 420 ms, and its
 * first check can come before runsv has acted on the TERM, when the old process still reads
 * `run:`; runsv then holds a service that ran for under a second for one more second before
 * starting it (`down: 0s, normally up, want up`), which a later reading reports as stopped. So,
 * from the pids `before` (read by the wave's wait for runsv), the three commands `sv restart`
 * sends (term, cont, up; none waits), then one batched `sv status` after 10, 20 and 40 ms and
 * every 50 ms after, until each is `run:` with a new pid, for at most 7 s.
 */
export async function restartServices(ctx: ApplyContext, targets: SvTarget[], before: ReadonlyMap<string, SvStatus>): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  if (targets.length === 0) return failures;
  let live = targets;
  for (const command of ["term", "cont", "up"]) {
    (await svBatch(ctx, [command], live)).forEach((error, key) => failures.set(key, error));
    live = live.filter((t) => !failures.has(t.key));
  }
  const oldPid = (dir: string) => before.get(dir)?.service?.pid;
  let waiting = live;
  let last = new Map<string, string>();
  for (let attempt = 0, slept = 0; waiting.length > 0; attempt += 1) {
    if (attempt > 0) {
      const ms = POLL_MS[Math.min(attempt - 1, POLL_MS.length - 1)]!;
      if (slept + ms > WAIT_MS) break;
      await ctx.sleep(ms);
      slept += ms;
    }
    const now = await readSvStatus(waiting.map((t) => t.dir), ctx);
    last = new Map([...now].map(([dir, status]) => [dir, status.line]));
    waiting = waiting.filter((t) => {
      const service = now.get(t.dir)?.service;
      return !(service?.state === "run" && !service.flags.includes("want down") && service.pid !== oldPid(t.dir));
    });
  }
  for (const target of waiting) {
    failures.set(target.key, errors.commandFailed(["sv", "restart", target.dir], 1, `timeout: ${last.get(target.dir) ?? `${target.dir}: no status`}`));
  }
  return failures;
}
