import type { ApplyContext } from "@tend/core";
import { readSvStatus } from "./read-sv-status.js";
import { sv } from "./sv-command.js";
import { waitForPickup } from "./wait-for-pickup.js";

/**
 * runsv reads `down` and looks for `log/` only when it starts. A user service's directory is
 * itself in the scanned `~/.local/service`, so runsvdir can start a runsv between tend creating
 * the directory and writing the rest (and a transient `down` lands after a system link). When
 * sv shows that runsv missed either, it is told to exit (`sv -v exit` waits until it is gone)
 * and runsvdir starts a fresh one at once, which sees the finished directory.
 */
export async function restartEarlyRunsv(dir: string, ctx: ApplyContext, hint: string): Promise<void> {
  const status = (await readSvStatus([dir], ctx)).get(dir);
  const service = status?.service;
  if (!service) return;
  const normallyUp = service.state === "down" ? service.flags.includes("normally up") : !service.flags.includes("normally down");
  const wantsDownFile = await ctx.files.exists(`${dir}/down`);
  const missedLog = status.log === undefined && (await ctx.files.isDirectory(`${dir}/log`));
  if (normallyUp !== wantsDownFile && !missedLog) return;
  ctx.log(`runit: runsv started ${dir} before tend had written it; restarting that runsv`);
  await sv(ctx, ["-v", "-w", "10", "exit"], dir);
  await waitForPickup(dir, ctx, hint);
}
