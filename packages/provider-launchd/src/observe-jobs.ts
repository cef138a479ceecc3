import type { Observation, ReadContext, Resource } from "@tend/core/contract";
import { keepsProcess } from "./keeps-process.js";
import { loadedOlder, plistHash } from "./loaded-plists.js";
import { launchdJob, type LaunchdJob } from "./launchd-job.js";
import type { DomainJob } from "./parse-domain-print.js";
import { predictBoot } from "./predict-boot.js";
import { readDomain, type DomainView } from "./read-domain.js";
import { jobPlist } from "./render-job.js";

type JobResource = Extract<Resource, { type: "service" | "timer" }>;

/**
 * Observes every job with one read-only call per domain, `launchctl print <domain>` (which jobs
 * are loaded, with their pids, and the boot overrides in its `disabled services` block; `launchctl
 * print-disabled` only when that block is missing), plus a look at each plist file:
 * - exists: the plist is there, or the label is loaded;
 * - enabled: the plist is there and no override disables the label;
 * - state: a timer is running while loaded (armed). A service is stopped when not loaded (booted
 *   out by hand: drift) and running with a pid; loaded without a pid it is stopped only when
 *   launchd keeps its process alive (`KeepAlive`), and otherwise unobservable, since a job that
 *   runs once at load or on an interval is idle between runs by design.
 * Under `--root` nothing can be asked: only the files are looked at.
 */
export async function observeJobs(resources: Resource[], ctx: ReadContext): Promise<Map<string, Observation>> {
  const jobs = resources
    .filter((r): r is JobResource => r.type === "service" || r.type === "timer")
    .map((resource) => ({ resource, job: launchdJob(resource, ctx.scope, ctx.host) }));
  const domains = new Map<string, DomainView | undefined>();
  for (const domain of new Set(jobs.map(({ job }) => job.domain))) domains.set(domain, ctx.root === undefined ? await readDomain(domain, ctx, { overrides: true }) : undefined);
  const observations = new Map<string, Observation>();
  for (const { resource, job } of jobs) {
    const fileExists = await ctx.files.exists(job.path);
    const observation = observe(resource, job, fileExists, domains.get(job.domain));
    if (observation.details?.loaded === true && loadedOlder(ctx.state, job.label, plistHash(resource))) {
      observation.olderDefinition = [`launchd runs an older definition than ${job.path}`];
    }
    observations.set(`${resource.type}:${resource.name}`, observation);
  }
  return observations;
}

function observe(resource: JobResource, job: LaunchdJob, fileExists: boolean, view: DomainView | undefined): Observation {
  const details: Record<string, string | number | boolean> = { domain: job.domain, label: job.label, plist: fileExists };
  if (view?.note) details.note = view.note;
  const atBoot = resource.type === "service" ? predictBoot(job, jobPlist(resource), fileExists, view?.overrides ? view.overrides.get(job.label) === true : undefined) : undefined;
  const boot = atBoot ? { atBoot } : {};
  if (!view?.present || !view.loaded) {
    const enabled = view?.overrides ? fileExists && view.overrides.get(job.label) !== true : undefined;
    return { exists: fileExists, ...(enabled === undefined ? {} : { enabled }), ...(fileExists ? boot : {}), details };
  }
  const entry = view.loaded.get(job.label);
  details.loaded = entry !== undefined;
  if (entry?.pid !== undefined) details.pid = entry.pid;
  if (entry && entry.lastExit !== "-") details.lastExit = entry.lastExit;
  const observation: Observation = { exists: fileExists || entry !== undefined, details };
  if (atBoot && observation.exists) observation.atBoot = atBoot;
  if (view.overrides) observation.enabled = fileExists && view.overrides.get(job.label) !== true;
  const state = stateOf(resource, entry);
  if (state) observation.state = state;
  return observation;
}

function stateOf(resource: JobResource, entry: DomainJob | undefined): Observation["state"] {
  if (!entry) return "stopped";
  if (resource.type === "timer" || entry.pid !== undefined) return "running";
  return keepsProcess(jobPlist(resource)) ? "stopped" : undefined;
}
