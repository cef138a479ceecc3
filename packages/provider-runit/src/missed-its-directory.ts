import type { ApplyContext } from "@tend/core/contract";
import type { SvStatus } from "./parse-sv-status.js";

/**
 * Whether runsv started on a directory before tend had finished it. runsv reads `down` and looks
 * for `log/` only when it starts. A user service's directory is itself in the scanned
 * `~/.local/service`, so runsvdir can start a runsv between tend creating the directory and
 * writing the rest (and a transient `down` lands after a system link). Such a runsv is told to
 * exit (`sv -v exit` waits until it is gone) and runsvdir starts a fresh one at once, which sees
 * the finished directory.
 */
export async function missedItsDirectory(dir: string, status: SvStatus, ctx: ApplyContext): Promise<boolean> {
  const service = status.service;
  if (!service) return false;
  const normallyUp = service.state === "down" ? service.flags.includes("normally up") : !service.flags.includes("normally down");
  const wantsDownFile = await ctx.files.exists(`${dir}/down`);
  const missedLog = status.log === undefined && (await ctx.files.isDirectory(`${dir}/log`));
  return normallyUp === wantsDownFile || missedLog;
}
