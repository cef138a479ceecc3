import type { ApplyContext } from "@tend/core/contract";
import { whatItMissed } from "./missed-its-directory.js";
import type { SvStatus } from "./parse-sv-status.js";
import { readSvStatus } from "./read-sv-status.js";
import { svBatch, type SvTarget } from "./sv-batch.js";
import { PICKUP_ATTEMPTS } from "./wait-for-pickup.js";

/** Readings again of a runsv whose log service is not in its status yet: 1.55 s in all. */
const LOG_GRACE_MS = [50, 100, 200, 400, 800];
const POLL_MS = 250;

/**
 * The directories of `targets` whose runsv started before tend had finished them. runsv starts
 * its log service in its first moments, but on a busy host (200 runsv starting at once) `sv
 * status` can read it before that: a directory missing only its log is read again for a moment
 * before it counts, as each restart of a runsv waits for runsvdir's next scan (up to 5 s).
 */
export async function earlyRunsvs(targets: SvTarget[], statuses: ReadonlyMap<string, SvStatus>, ctx: ApplyContext): Promise<SvTarget[]> {
  // Every directory's reads at once: on a remote host (fleet) they share round trips.
  const missed = new Map(await Promise.all(targets.map(async (target) => [target, await whatItMissed(target.dir, statuses.get(target.dir)!, ctx)] as const)));
  let onlyLog = targets.filter((t) => missed.get(t) === "log");
  for (const ms of LOG_GRACE_MS) {
    if (onlyLog.length === 0) break;
    await ctx.sleep(ms);
    const now = await readSvStatus(onlyLog.map((t) => t.dir), ctx);
    await Promise.all(
      onlyLog.map(async (target) => {
        const status = now.get(target.dir);
        missed.set(target, status?.service ? await whatItMissed(target.dir, status, ctx) : "log");
      }),
    );
    onlyLog = onlyLog.filter((t) => missed.get(t) === "log");
  }
  return targets.filter((t) => missed.get(t) !== undefined);
}

/**
 * Has the runsv of each of `targets` exit and waits until runsvdir has started a fresh one that
 * saw the finished directory: supervised, missing nothing, and not running the old runsv's
 * process. (`sv -v exit` waits for the old runsv to be gone, but runsvdir can start the fresh
 * one before sv looks again, and sv then times out on a runsv that is just what tend wanted.)
 * Resolves with the fresh statuses, the directories still waiting when the wait ran out, and the
 * failures of `sv exit` by key.
 */
export async function restartRunsvs(
  targets: SvTarget[],
  before: ReadonlyMap<string, SvStatus>,
  ctx: ApplyContext,
): Promise<{ statuses: Map<string, SvStatus>; missing: string[]; failures: Map<string, unknown> }> {
  // A runsv that exited meanwhile is fine: runsvdir starts a fresh one all the same.
  const failures = await svBatch(ctx, ["exit"], targets, { failed: (status) => status.error !== undefined && !/runsv not running/.test(status.line) });
  const statuses = new Map<string, SvStatus>();
  let waiting = targets.filter((t) => !failures.has(t.key));
  for (let attempt = 0; waiting.length > 0 && attempt < PICKUP_ATTEMPTS; attempt += 1) {
    await ctx.sleep(POLL_MS);
    const now = await readSvStatus(waiting.map((t) => t.dir), ctx);
    await Promise.all(
      waiting.map(async (target) => {
        const status = now.get(target.dir);
        const oldPid = before.get(target.dir)?.service?.pid;
        if (!status?.service || (oldPid !== undefined && status.service.pid === oldPid)) return;
        if ((await whatItMissed(target.dir, status, ctx)) === undefined) statuses.set(target.dir, status);
      }),
    );
    waiting = waiting.filter((t) => !statuses.has(t.dir));
  }
  return { statuses, missing: waiting.map((t) => t.dir), failures };
}
