import type { ApplyContext, ResourceChange } from "@tend/core/contract";
import { launchdJob } from "./launchd-job.js";
import { unloadJob } from "./unload-job.js";

/**
 * A removal, before the core deletes the plist: `launchctl bootout` (a label that is not loaded
 * is fine). A service that was kept disabled leaves an override in launchd's database; it is set
 * back to enabled so a later job of the same name starts clean. Nothing runs under `--root`.
 */
export async function removeJob(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const resource = change.resource;
  if (resource.type === "file" || resource.type === "package" || ctx.offline) return;
  const job = launchdJob(resource, ctx.scope, ctx.host);
  await unloadJob(job, ctx, { wait: false });
  ctx.log(`${change.key}: booted out ${job.target}`);
  if (resource.type === "service" && resource.desired?.enabled === false) {
    await ctx.run.run({ argv: ["launchctl", "enable", job.target] });
  }
}
