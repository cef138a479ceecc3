import type { Probe, ReadContext, Resource } from "@tend/core/contract";
import { keepsProcess } from "./keeps-process.js";
import { LAUNCHCTL_EXIT } from "./launchctl-exit.js";
import { launchdJob } from "./launchd-job.js";
import { parseJobPrint, type JobPrint } from "./parse-job-print.js";
import { jobPlist } from "./render-job.js";

type JobResource = Extract<Resource, { type: "service" | "timer" }>;

/**
 * Health readings from `launchctl print <domain>/<label>`, one call per job (a domain print has
 * no state for a loaded job without a process). A job launchd keeps alive is up while
 * `state = running` with a pid, and its identity is that pid: a crash and respawn during the
 * settle window changes it. A job that runs once (or on an interval) is up while loaded and its
 * last run, if any, exited 0; it has no identity to compare.
 */
export async function probeJobs(resources: Resource[], ctx: ReadContext): Promise<Map<string, Probe>> {
  const probes = new Map<string, Probe>();
  for (const resource of resources) {
    if (resource.type !== "service" && resource.type !== "timer") continue;
    probes.set(`${resource.type}:${resource.name}`, await probeJob(resource, ctx));
  }
  return probes;
}

async function probeJob(resource: JobResource, ctx: ReadContext): Promise<Probe> {
  const job = launchdJob(resource, ctx.scope, ctx.host);
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
