import type { ApplyContext } from "@tend/core/contract";
import type { SvStatus } from "./parse-sv-status.js";
import { readSvStatus } from "./read-sv-status.js";

const POLL_MS = 250;
/** runsvdir rescans every 5 s; a user's first service waits for two scans (system, then user). */
export const PICKUP_ATTEMPTS = 60;

/**
 * Waits until a runsv supervises each of `dirs`, all at once: one batched `sv status` per poll,
 * over the directories not yet picked up. sv reports a state only after opening `supervise/ok`,
 * a fifo runsv holds open; the file itself outlives a runsv that exited, so its presence would
 * prove nothing, nor does sv's exit code, which also counts a `log/` that runsv did not start.
 * Resolves with the status that showed each picked-up directory, and the directories that were
 * still not picked up when the wait ran out.
 */
export async function waitForPickup(dirs: string[], ctx: ApplyContext): Promise<{ statuses: Map<string, SvStatus>; missing: string[] }> {
  const statuses = new Map<string, SvStatus>();
  let waiting = [...new Set(dirs)];
  for (let attempt = 0; waiting.length > 0 && attempt < PICKUP_ATTEMPTS; attempt += 1) {
    if (attempt > 0) await ctx.sleep(POLL_MS);
    const read = await readSvStatus(waiting, ctx);
    for (const dir of waiting) {
      const status = read.get(dir);
      if (status?.service) statuses.set(dir, status);
    }
    waiting = waiting.filter((dir) => !statuses.has(dir));
  }
  return { statuses, missing: waiting };
}

/** The wait, in seconds, for messages. */
export const PICKUP_SECONDS = (PICKUP_ATTEMPTS * POLL_MS) / 1000;
