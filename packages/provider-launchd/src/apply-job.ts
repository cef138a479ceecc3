import { errors, type ApplyContext, type ResourceChange } from "@tend/core/contract";
import { bootstrapJob } from "./bootstrap-job.js";
import { jobLoaded } from "./job-loaded.js";
import { launchdJob } from "./launchd-job.js";
import { unloadJob } from "./unload-job.js";

/**
 * Carries out an add or change. What each operation means on launchd:
 * - `enable` / `disable`: `launchctl enable|disable <domain>/<label>`, launchd's boot override.
 *   `disable` runs last: launchd refuses to bootstrap a disabled label, so a service that should
 *   run now but not at boot is loaded first and disabled after (and re-enabled around any later
 *   bootstrap).
 * - `stop`: bootout, so the job is no longer loaded (a KeepAlive job cannot be loaded and stopped).
 * - `start` / `restart`: bootstrap when the label is not loaded; when it is and the plist changed,
 *   bootout, wait until launchd lets go of the label, and bootstrap again (launchd keeps the
 *   definition it loaded); otherwise `kickstart` (`-k` to restart) for a service. A loaded timer
 *   is already armed.
 * - `reload`: `launchctl kill SIG<reloadSignal>`.
 * Under `--root` nothing runs: the plist in the image loads at boot.
 */
export async function applyJob(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const resource = change.resource;
  if (resource.type === "file" || resource.type === "package") return;
  const ops = new Set(change.ops);
  if (ctx.offline) {
    if (ops.has("disable")) ctx.log(`${change.key}: not disabled: launchd keeps its boot overrides outside the image, so the job loads at boot`);
    return;
  }
  const job = launchdJob(resource, ctx.scope, ctx.host);
  const launchctl = (...args: string[]) => ctx.run.run({ argv: ["launchctl", ...args] });
  const keepDisabled = resource.type === "service" && resource.desired?.enabled === false;
  let disabled = false;

  const load = async () => {
    if (keepDisabled) await launchctl("enable", job.target);
    await bootstrapJob(job, ctx);
    if (keepDisabled) {
      await launchctl("disable", job.target);
      disabled = true;
    }
  };

  if (ops.has("enable")) {
    await launchctl("enable", job.target);
    ctx.log(`${change.key}: enabled ${job.target}`);
  }
  if (ops.has("stop")) {
    await unloadJob(job, ctx, { wait: true });
    ctx.log(`${change.key}: booted out ${job.target}`);
  }
  if (ops.has("start") || ops.has("restart")) {
    if (!(await jobLoaded(job, ctx))) {
      await load();
      ctx.log(`${change.key}: bootstrapped ${job.path} into ${job.domain}`);
    } else if (change.filesChanged) {
      await unloadJob(job, ctx, { wait: true });
      await load();
      ctx.log(`${change.key}: booted out and bootstrapped ${job.target} again`);
    } else if (resource.type === "service") {
      await launchctl("kickstart", ...(ops.has("restart") ? ["-k"] : []), job.target);
      ctx.log(`${change.key}: kickstarted ${job.target}`);
    }
  }
  if (ops.has("reload")) {
    const signal = resource.type === "service" ? resource.reloadSignal : undefined;
    if (!signal) throw errors.cannotReload(change.key, "launchd");
    await launchctl("kill", `SIG${signal}`, job.target);
    ctx.log(`${change.key}: sent SIG${signal} to ${job.target}`);
  }
  if (ops.has("disable") && !disabled) {
    await launchctl("disable", job.target);
    ctx.log(`${change.key}: disabled ${job.target}`);
  }
}
