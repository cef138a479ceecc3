import type { ApplyContext } from "@tend/core/contract";
import { LAUNCHCTL_EXIT } from "./launchctl-exit.js";
import type { LaunchdJob } from "./launchd-job.js";

const RETRY_MS = 1_000;
const RETRY_FOR_MS = 15_000;

/**
 * `launchctl bootstrap <domain> <plist>`: loads the job (and, with `RunAtLoad` or `KeepAlive`,
 * starts it). Right after a bootout launchd may still hold the label and answers 5 or 37; those
 * are retried every second for about 15 s, and the last attempt reports launchctl's own error.
 */
export async function bootstrapJob(job: LaunchdJob, ctx: ApplyContext): Promise<void> {
  const argv = ["launchctl", "bootstrap", job.domain, job.path];
  for (let waited = 0; ; waited += RETRY_MS) {
    const last = waited >= RETRY_FOR_MS;
    const okCodes = last ? [0] : [0, LAUNCHCTL_EXIT.inputOutput, LAUNCHCTL_EXIT.alreadyInProgress];
    const result = await ctx.run.run({ argv, okCodes });
    if (result.exitCode === 0) return;
    await ctx.sleep(RETRY_MS);
  }
}
