import type { ApplyContext } from "@tend/core/contract";
import type { SvStatus } from "./parse-sv-status.js";

/**
 * What the runsv behind `status` missed, if it started on a directory before tend had finished
 * it: the `down` file (its state says the opposite), or the `log/` folder (no log service in its
 * status; on a busy host also the moment before a runsv that did see it starts its log service).
 * runsv reads `down` and looks for `log/` only when it starts. A user service's directory is
 * itself in the scanned `~/.local/service`, so runsvdir can start a runsv between tend creating
 * the directory and writing the rest (and a transient `down` lands after a system link). Such a
 * runsv is told to exit and runsvdir starts a fresh one, which sees the finished directory
 * (early-runsv.ts).
 */
export async function whatItMissed(dir: string, status: SvStatus, ctx: ApplyContext): Promise<"down" | "log" | undefined> {
  const service = status.service;
  if (!service) return undefined;
  const normallyUp = service.state === "down" ? service.flags.includes("normally up") : !service.flags.includes("normally down");
  if (normallyUp === (await ctx.files.exists(`${dir}/down`))) return "down";
  if (status.log === undefined && (await ctx.files.isDirectory(`${dir}/log`))) return "log";
  return undefined;
}
