import type { ApplyContext, ResourceChange } from "@tend/core/contract";
import { bootoutJobs } from "./bootout-jobs.js";
import { forgetLoaded } from "./loaded-plists.js";
import type { JobChange } from "./job-change.js";
import { launchdJob } from "./launchd-job.js";
import { loadedLabels } from "./loaded-labels.js";
import { readDomain } from "./read-domain.js";

/**
 * A wave of removals, before the core deletes the plists: per domain one `launchctl print
 * <domain>`, then one `launchctl bootout <domain> <plist>…` of the jobs still loaded (a job booted
 * out already needs nothing). A label left with a disabled boot override (a service kept
 * disabled) is enabled again, one `launchctl enable` each, so a later job of the same name starts
 * clean. Failures are pinned on their job, and its plist stays. Nothing runs under `--root`.
 */
export async function removeBatch(changes: ResourceChange[], ctx: ApplyContext): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  if (ctx.offline) return failures;
  const byDomain = new Map<string, JobChange[]>();
  for (const change of changes) {
    const resource = change.resource;
    if (resource.type === "file" || resource.type === "package") continue;
    try {
      const job = launchdJob(resource, ctx.scope, ctx.host);
      byDomain.set(job.domain, [...(byDomain.get(job.domain) ?? []), { change: { ...change, resource }, job }]);
    } catch (error) {
      failures.set(change.key, error);
    }
  }
  for (const [domain, jobs] of byDomain) {
    const view = await readDomain(domain, ctx, { overrides: true });
    const loaded = await loadedLabels(jobs, view, ctx);
    const unloading = jobs.filter(({ job }) => loaded.has(job.label));
    (await bootoutJobs(domain, unloading, ctx, { wait: false })).forEach((error, key) => failures.set(key, error));
    for (const { change, job } of unloading) {
      if (failures.has(change.key)) continue;
      forgetLoaded(ctx.state, job.label);
      ctx.log(`${change.key}: booted out ${job.target}`);
    }
    for (const { change, job } of jobs) {
      if (failures.has(change.key) || !leftDisabled(change, job.label, view.overrides)) continue;
      try {
        await ctx.run.run({ argv: ["launchctl", "enable", job.target] });
      } catch (error) {
        failures.set(change.key, error);
      }
    }
  }
  return failures;
}

/** A single removal: a wave of one. */
export async function removeChange(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const failure = (await removeBatch([change], ctx)).get(change.key);
  if (failure !== undefined) throw failure;
}

/** The label's override says disabled; when overrides are unknown, a service tend kept disabled. */
function leftDisabled(change: JobChange["change"], label: string, overrides: Map<string, boolean> | undefined): boolean {
  if (overrides) return overrides.get(label) === true;
  return change.resource.type === "service" && change.resource.desired?.enabled === false;
}
