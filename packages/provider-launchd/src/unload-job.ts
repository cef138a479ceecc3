import type { ApplyContext } from "@tend/core/contract";
import { jobLoaded } from "./job-loaded.js";
import { LAUNCHCTL_EXIT } from "./launchctl-exit.js";
import type { LaunchdJob } from "./launchd-job.js";

const POLL_MS = 500;
const UNLOAD_WAIT_MS = 10_000;

/**
 * `launchctl bootout <domain>/<label>`, which stops the job and unloads it. A label that is not
 * loaded is fine (3, 113, or 112 when the user has no GUI session at all). Bootout returns before launchd has let go of the label, and a
 * bootstrap in that window fails with "5: Input/output error", so with `wait` this polls
 * `launchctl print` until it answers 113, for up to ten seconds; past that the bootstrap that
 * follows retries on its own and reports launchctl's words if it still fails.
 */
export async function unloadJob(job: LaunchdJob, ctx: ApplyContext, options: { wait: boolean }): Promise<void> {
  const { noSuchProcess, inProgress, noDomain, noService } = LAUNCHCTL_EXIT;
  const okCodes = [0, noSuchProcess, inProgress, noDomain, noService];
  await ctx.run.run({ argv: ["launchctl", "bootout", job.target], okCodes });
  if (!options.wait) return;
  for (let waited = 0; waited < UNLOAD_WAIT_MS; waited += POLL_MS) {
    if (!(await jobLoaded(job, ctx))) return;
    await ctx.sleep(POLL_MS);
  }
}
