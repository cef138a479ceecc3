import { errors, type ApplyContext, type Operation, type ResourceChange } from "@tend/core/contract";
import { bootoutJobs } from "./bootout-jobs.js";
import { bootstrapJobs } from "./bootstrap-jobs.js";
import type { JobChange } from "./job-change.js";
import { launchdJob } from "./launchd-job.js";
import { loadedLabels } from "./loaded-labels.js";
import { noteLoaded, plistHash } from "./loaded-plists.js";
import { readDomain } from "./read-domain.js";

/**
 * Carries out a wave of adds and changes with as few launchctl calls as launchd allows, per
 * domain:
 * - one `launchctl print <domain>` for which labels are loaded and which have a disabled boot
 *   override;
 * - `enable` lifts an override only where there is one (`launchctl enable <domain>/<label>`, one
 *   label per call: launchctl has no batch form);
 * - `stop`: one `bootout <domain> <plist>…` of the loaded ones (a KeepAlive job cannot be loaded
 *   and stopped), then one print per poll until launchd has let go of them;
 * - `start` / `restart`: labels not loaded, and loaded ones whose plist changed (booted out
 *   first, as above: launchd keeps the definition it loaded), are loaded together by one
 *   `bootstrap <domain> <plist>…`; a loaded service whose plist is unchanged is kickstarted
 *   (`-k` to restart), one per call; a loaded timer is already armed;
 * - `reload`: `launchctl kill SIG<reloadSignal>` to the job, one per call;
 * - `disable` runs last, since launchd refuses to bootstrap a disabled label: a service that
 *   should run but not start at boot is enabled just long enough to load it (and disabled again
 *   even when loading it failed).
 * So a fresh wave of any size costs two calls. Failures are pinned on the job that caused them;
 * a job that failed takes no further step. Under `--root` nothing runs: the plist in the image
 * loads at boot.
 */
export async function applyBatch(changes: ResourceChange[], ctx: ApplyContext): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  const byDomain = new Map<string, JobChange[]>();
  for (const change of changes) {
    const resource = change.resource;
    if (resource.type === "file" || resource.type === "package") continue;
    if (ctx.offline) {
      if (change.ops.includes("disable")) ctx.log(`${change.key}: not disabled: launchd keeps its boot overrides outside the image, so the job loads at boot`);
      continue;
    }
    try {
      const job = launchdJob(resource, ctx.scope, ctx.host);
      byDomain.set(job.domain, [...(byDomain.get(job.domain) ?? []), { change: { ...change, resource }, job }]);
    } catch (error) {
      failures.set(change.key, error);
    }
  }
  for (const [domain, jobs] of byDomain) await applyInDomain(domain, jobs, ctx, failures);
  return failures;
}

/** Carries out a single change: a wave of one. */
export async function applyChange(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const failure = (await applyBatch([change], ctx)).get(change.key);
  if (failure !== undefined) throw failure;
}

async function applyInDomain(domain: string, jobs: JobChange[], ctx: ApplyContext, failures: Map<string, unknown>): Promise<void> {
  const has = (j: JobChange, op: Operation) => j.change.ops.includes(op);
  const live = (list: JobChange[]) => list.filter((j) => !failures.has(j.change.key));
  const launchctl = async (j: JobChange, args: string[], done: string) => {
    try {
      await ctx.run.run({ argv: ["launchctl", ...args] });
      ctx.log(`${j.change.key}: ${done}`);
    } catch (error) {
      if (!failures.has(j.change.key)) failures.set(j.change.key, error);
    }
  };
  const merge = (found: Map<string, unknown>) => found.forEach((error, key) => failures.set(key, error));

  const view = await readDomain(domain, ctx, { overrides: jobs.some((j) => has(j, "enable") || keptDisabled(j)) });
  const loaded = await loadedLabels(jobs, view, ctx);
  const isLoaded = (j: JobChange) => loaded.has(j.job.label);
  const starting = jobs.filter((j) => has(j, "start") || has(j, "restart"));
  const reloading = starting.filter((j) => isLoaded(j) && j.change.filesChanged);
  const loading = [...starting.filter((j) => !isLoaded(j)), ...reloading];
  const kicking = starting.filter((j) => isLoaded(j) && !j.change.filesChanged && j.change.resource.type === "service");
  // Unknown overrides may hold a disabled one: lift it to be sure.
  const overridden = (j: JobChange) => (view.overrides ? view.overrides.get(j.job.label) === true : true);

  const enabledToLoad = new Set<JobChange>();
  for (const j of jobs.filter((j) => (has(j, "enable") || (keptDisabled(j) && loading.includes(j))) && overridden(j))) {
    await launchctl(j, ["enable", j.job.target], `enabled ${j.job.target}`);
    if (keptDisabled(j)) enabledToLoad.add(j);
  }
  const stopping = live(jobs.filter((j) => has(j, "stop") && isLoaded(j)));
  merge(await bootoutJobs(domain, stopping, ctx, { wait: true }));
  for (const j of live(stopping)) ctx.log(`${j.change.key}: booted out ${j.job.target}`);

  merge(await bootoutJobs(domain, live(reloading), ctx, { wait: true }));
  const loadingNow = live(loading);
  merge(await bootstrapJobs(domain, loadingNow, ctx));
  for (const j of live(loadingNow)) {
    noteLoaded(ctx.state, j.job.label, plistHash(j.change.resource));
    ctx.log(reloading.includes(j) ? `${j.change.key}: booted out and bootstrapped ${j.job.target} again` : `${j.change.key}: bootstrapped ${j.job.path} into ${domain}`);
  }
  for (const j of live(kicking)) await launchctl(j, ["kickstart", ...(has(j, "restart") ? ["-k"] : []), j.job.target], `kickstarted ${j.job.target}`);
  for (const j of live(jobs.filter((j) => has(j, "reload")))) {
    const signal = j.change.resource.type === "service" ? j.change.resource.reloadSignal : undefined;
    if (!signal) failures.set(j.change.key, errors.cannotReload(j.change.key, "launchd"));
    else await launchctl(j, ["kill", `SIG${signal}`, j.job.target], `sent SIG${signal} to ${j.job.target}`);
  }
  // A kept-disabled service enabled to be loaded is disabled again even when loading it failed.
  for (const j of jobs.filter((j) => enabledToLoad.has(j) || (!failures.has(j.change.key) && (has(j, "disable") || (keptDisabled(j) && loading.includes(j)))))) {
    await launchctl(j, ["disable", j.job.target], `disabled ${j.job.target}`);
  }
}

/** A service to run now but not at boot: launchd loads it only while enabled. */
function keptDisabled(j: JobChange): boolean {
  return j.change.resource.type === "service" && j.change.resource.desired?.enabled === false;
}
