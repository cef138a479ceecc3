import type { Observation, ReadContext, Resource } from "@tend/core/contract";
import { keepsProcess } from "./keeps-process.js";
import { LAUNCHCTL_EXIT } from "./launchctl-exit.js";
import { launchdJob, type LaunchdJob } from "./launchd-job.js";
import { parseDomainPrint, type DomainJob } from "./parse-domain-print.js";
import { parsePrintDisabled } from "./parse-print-disabled.js";
import { jobPlist } from "./render-job.js";

type JobResource = Extract<Resource, { type: "service" | "timer" }>;

/** What one domain answered: its loaded jobs and its boot overrides (undefined: unknown). */
interface DomainView {
  /** False when the domain does not exist (a user without a GUI session). */
  present: boolean;
  loaded?: Map<string, DomainJob>;
  overrides?: Map<string, boolean>;
  /** Why part of the answer is unknown, for `tend observe`. */
  note?: string;
}

/**
 * Observes every job with two read-only calls per domain, `launchctl print <domain>` (which jobs
 * are loaded, with their pids) and `launchctl print-disabled <domain>` (boot overrides), plus a
 * look at each plist file:
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
  for (const domain of new Set(jobs.map(({ job }) => job.domain))) domains.set(domain, await viewDomain(domain, ctx));
  const observations = new Map<string, Observation>();
  for (const { resource, job } of jobs) {
    const fileExists = await ctx.files.exists(job.path);
    observations.set(`${resource.type}:${resource.name}`, observe(resource, job, fileExists, domains.get(job.domain)));
  }
  return observations;
}

async function viewDomain(domain: string, ctx: ReadContext): Promise<DomainView | undefined> {
  if (ctx.root !== undefined) return undefined;
  const okCodes = [0, LAUNCHCTL_EXIT.noDomain, LAUNCHCTL_EXIT.noService];
  const printed = await ctx.run.run({ argv: ["launchctl", "print", domain], okCodes });
  if (printed.exitCode !== 0) return { present: false, note: `${domain} does not exist (no GUI session); its jobs load at login` };
  // Overrides only decide `enabled`: when they cannot be read it is unobservable, not a failed plan.
  const disabled = await ctx.run.run({ argv: ["launchctl", "print-disabled", domain], okCodes: "any" });
  const view: DomainView = { present: true };
  const unread: string[] = [];
  const loaded = parseDomainPrint(printed.stdout);
  if (loaded) view.loaded = loaded;
  else unread.push(`\`launchctl print ${domain}\``);
  const overrides = disabled.exitCode === 0 ? parsePrintDisabled(disabled.stdout) : undefined;
  if (overrides) view.overrides = overrides;
  else unread.push(`\`launchctl print-disabled ${domain}\`${disabled.exitCode === 0 ? "" : ` (exit ${disabled.exitCode}: ${disabled.stderr.trim()})`}`);
  if (unread.length > 0) view.note = `could not read ${unread.join(" or ")}`;
  return view;
}

function observe(resource: JobResource, job: LaunchdJob, fileExists: boolean, view: DomainView | undefined): Observation {
  const details: Record<string, string | number | boolean> = { domain: job.domain, label: job.label, plist: fileExists };
  if (view?.note) details.note = view.note;
  if (!view?.present || !view.loaded) {
    const enabled = view?.overrides ? fileExists && view.overrides.get(job.label) !== true : undefined;
    return { exists: fileExists, ...(enabled === undefined ? {} : { enabled }), details };
  }
  const entry = view.loaded.get(job.label);
  details.loaded = entry !== undefined;
  if (entry?.pid !== undefined) details.pid = entry.pid;
  if (entry && entry.lastExit !== "-") details.lastExit = entry.lastExit;
  const observation: Observation = { exists: fileExists || entry !== undefined, details };
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
