import type { Probe, ReadContext, Resource } from "@tend/core/contract";
import { keepsProcess } from "./keeps-process.js";
import { LAUNCHCTL_EXIT } from "./launchctl-exit.js";
import { launchdJob, type LaunchdJob } from "./launchd-job.js";
import type { DomainJob } from "./parse-domain-print.js";
import { parseJobPrint, type JobPrint } from "./parse-job-print.js";
import { readDomain } from "./read-domain.js";
import { jobPlist } from "./render-job.js";

type JobResource = Extract<Resource, { type: "service" | "timer" }>;

/**
 * Health readings for every job from one `launchctl print <domain>` per domain: its `services`
 * block has each loaded job's pid and last exit status. A job launchd keeps alive is up while it
 * has a pid, and its identity is that pid: a crash and respawn during the settle window changes
 * it. A job that runs once (or on an interval) is up while loaded, running or with a last exit
 * status of 0 (or none yet); it has no identity to compare. Only when the domain print cannot be
 * read is each job printed on its own (`launchctl print <domain>/<label>`).
 */
export async function probeJobs(resources: Resource[], ctx: ReadContext): Promise<Map<string, Probe>> {
  const byDomain = new Map<string, { resource: JobResource; job: LaunchdJob }[]>();
  for (const resource of resources) {
    if (resource.type !== "service" && resource.type !== "timer") continue;
    const job = launchdJob(resource, ctx.scope, ctx.host);
    byDomain.set(job.domain, [...(byDomain.get(job.domain) ?? []), { resource, job }]);
  }
  const probes = new Map<string, Probe>();
  for (const [domain, jobs] of byDomain) {
    const view = await readDomain(domain, ctx);
    for (const { resource, job } of jobs) {
      const key = `${resource.type}:${resource.name}`;
      if (view.present && !view.loaded) probes.set(key, await probeAlone(resource, job, ctx));
      else probes.set(key, probeFromDomain(resource, job, view.loaded?.get(job.label)));
    }
  }
  return probes;
}

function probeFromDomain(resource: JobResource, job: LaunchdJob, entry: DomainJob | undefined): Probe {
  if (!entry) return { up: false, detail: `${job.label} is not loaded in ${job.domain}` };
  const pid = entry.pid;
  const detail = pid !== undefined ? `${job.label}: running as pid ${pid}` : `${job.label}: not running, ${entry.lastExit === "-" ? "never exited" : `last exit status ${entry.lastExit}`}`;
  if (keepsProcess(jobPlist(resource))) return { up: pid !== undefined, ...(pid !== undefined ? { identity: `pid ${pid}` } : {}), detail };
  return { up: pid !== undefined || entry.lastExit === "-" || entry.lastExit === "0", detail };
}

/** The same reading from `launchctl print <domain>/<label>`, for a domain print this reader cannot read. */
async function probeAlone(resource: JobResource, job: LaunchdJob, ctx: ReadContext): Promise<Probe> {
  const okCodes = [0, LAUNCHCTL_EXIT.noDomain, LAUNCHCTL_EXIT.noService];
  const result = await ctx.run.run({ argv: ["launchctl", "print", job.target], okCodes });
  if (result.exitCode !== 0) return { up: false, detail: `${job.label} is not loaded in ${job.domain}` };
  const printed = parseJobPrint(result.stdout);
  if (keepsProcess(jobPlist(resource))) {
    const up = printed.pid !== undefined && (printed.state === undefined || printed.state === "running");
    return { up, ...(printed.pid !== undefined ? { identity: `pid ${printed.pid}` } : {}), detail: describe(job.label, printed) };
  }
  const failed = (printed.lastExitCode !== undefined && printed.lastExitCode !== 0) || printed.lastSignal !== undefined;
  return { up: !failed, detail: describe(job.label, printed) };
}

function describe(label: string, printed: JobPrint): string {
  const parts = [`state = ${printed.state ?? "unknown"}`];
  if (printed.pid !== undefined) parts.push(`pid ${printed.pid}`);
  if (printed.runs !== undefined) parts.push(`runs ${printed.runs}`);
  if (printed.lastExitCode !== undefined) parts.push(`last exit code ${printed.lastExitCode}`);
  if (printed.lastSignal !== undefined) parts.push(`last terminating signal ${printed.lastSignal}`);
  return `${label}: ${parts.join(", ")}`;
}
