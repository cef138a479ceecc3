import { TendError, type ApplyContext } from "@tend/core";
import { readSvStatus } from "./read-sv-status.js";

const POLL_MS = 250;
/** runsvdir rescans every 5 s; a user's first service waits for two scans (system, then user). */
const ATTEMPTS = 60;

/**
 * Waits until a runsv supervises `dir`: `sv status` reports its state, which sv can read only
 * after opening `supervise/ok`, a fifo runsv holds open. The file itself outlives a runsv that
 * exited, so its presence would prove nothing; nor does sv's exit code, which also counts a
 * `log/` that runsv did not start.
 */
export async function waitForPickup(dir: string, ctx: ApplyContext, hint: string): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if ((await readSvStatus([dir], ctx)).get(dir)?.service) return;
    await ctx.sleep(POLL_MS);
  }
  throw new TendError("TEND_RUNIT_NOT_SUPERVISED", `runsv did not pick up ${dir} within ${(ATTEMPTS * POLL_MS) / 1000} s`, { hint });
}
