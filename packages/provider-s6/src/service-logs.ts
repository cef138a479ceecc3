import type { ReadContext, Resource } from "@tend/core/contract";
import { liveServiceDir } from "./s6-layout.js";

/** s6-linux-init's catch-all logger, where a longrun without its own logger writes. */
export const CATCH_ALL_LOG = "/run/uncaught-logs/current";
const TAIL = 20;

/**
 * What s6 can say about a service that failed verification: s6-svstat's summary (last exit code
 * or signal), then the tail of the catch-all log when the host has one. Lines there are not
 * labelled by service: s6 gives a longrun without a logger no log of its own.
 */
export async function serviceLogs(resource: Resource, ctx: ReadContext): Promise<string[]> {
  const dir = liveServiceDir(resource.name);
  const status = await ctx.run.run({ argv: ["s6-svstat", "--", dir], okCodes: "any" });
  const lines = [`s6-svstat ${dir}: ${(status.stdout.trim() || status.stderr.trim()) || `exit ${status.exitCode}`}`];
  const log = await ctx.files.readFile(CATCH_ALL_LOG);
  if (log !== null) {
    const tail = log.split("\n").filter((line) => line !== "").slice(-TAIL);
    lines.push(...tail.map((line) => `${CATCH_ALL_LOG}: ${line}`));
  }
  return lines;
}
