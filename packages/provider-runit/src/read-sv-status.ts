import type { ReadContext } from "@tend/core/contract";
import { parseSvStatus, type SvStatus } from "./parse-sv-status.js";
import { readSuperviseStatus } from "./read-supervise-status.js";
import { svAsUser, svInProcess } from "./sv-as.js";
import { SV_ANSWERED, SV_BATCH } from "./sv-limits.js";

/**
 * One `sv status` (or `sv -w SECONDS check`) for many service directories. sv's exit code is the
 * number of directories it could not read, so that is not an error here: those come back with
 * `error` set, and a directory sv did not mention is missing from the map. On this machine's own
 * files, `status` reads what sv would read, without starting it (readSuperviseStatus), unless sv
 * acts as another user (svAsUser).
 */
export async function readSvStatus(dirs: string[], ctx: ReadContext, command: "status" | "check" = "status"): Promise<Map<string, SvStatus>> {
  const result = new Map<string, SvStatus>();
  const unique = [...new Set(dirs)];
  if (command === "status" && svInProcess(ctx)) {
    // One clock for the batch, as sv reads it once.
    const now = Math.floor(Date.now() / 1000);
    for (const dir of unique) {
      const status = readSuperviseStatus(dir, ctx.files.real(dir), now);
      if (status) result.set(dir, status);
    }
    return result;
  }
  for (let i = 0; i < unique.length; i += SV_BATCH) {
    const batch = unique.slice(i, i + SV_BATCH);
    const argv = command === "check" ? ["sv", "-w", "1", "check", ...batch] : ["sv", "status", ...batch];
    const { stdout } = await ctx.run.run({ argv, okCodes: SV_ANSWERED, timeoutMs: 30_000, ...svAsUser(ctx) });
    for (const [dir, status] of parseSvStatus(stdout, batch)) result.set(dir, status);
  }
  return result;
}
