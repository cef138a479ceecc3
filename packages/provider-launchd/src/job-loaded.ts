import type { ReadContext } from "@tend/core/contract";
import { LAUNCHCTL_EXIT } from "./launchctl-exit.js";
import type { LaunchdJob } from "./launchd-job.js";

/** Whether the label is loaded in its domain: `launchctl print` exits 0, or 113 when it is not. */
export async function jobLoaded(job: LaunchdJob, ctx: ReadContext): Promise<boolean> {
  const result = await ctx.run.run({ argv: ["launchctl", "print", job.target], okCodes: [0, LAUNCHCTL_EXIT.noService] });
  return result.exitCode === 0;
}
