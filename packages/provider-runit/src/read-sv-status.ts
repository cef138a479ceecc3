import type { ReadContext } from "@tend/core";
import { parseSvStatus, type SvStatus } from "./parse-sv-status.js";
import { SV_ANSWERED } from "./sv-command.js";

/** Directories per sv call: keeps argv far below the kernel's limit for thousands of services. */
const BATCH = 500;


/**
 * One `sv status` (or `sv -w SECONDS check`) for many service directories. sv's exit code is the
 * number of directories it could not read, so that is not an error here: those come back with
 * `error` set, and a directory sv did not mention is missing from the map.
 */
export async function readSvStatus(dirs: string[], ctx: ReadContext, command: "status" | "check" = "status"): Promise<Map<string, SvStatus>> {
  const result = new Map<string, SvStatus>();
  const unique = [...new Set(dirs)];
  for (let i = 0; i < unique.length; i += BATCH) {
    const batch = unique.slice(i, i + BATCH);
    const argv = command === "check" ? ["sv", "-w", "1", "check", ...batch] : ["sv", "status", ...batch];
    const { stdout } = await ctx.run.run({ argv, okCodes: SV_ANSWERED, timeoutMs: 30_000 });
    for (const [dir, status] of parseSvStatus(stdout, batch)) result.set(dir, status);
  }
  return result;
}
