import type { ApplyContext } from "@tend/core/contract";
import type { JobChange } from "./job-change.js";
import { LAUNCHCTL_EXIT } from "./launchctl-exit.js";
import { loadedLabels } from "./loaded-labels.js";
import { readDomain } from "./read-domain.js";

const POLL_MS = 500;
const UNLOAD_WAIT_MS = 10_000;
/** Plists per launchctl call: keeps argv far below the kernel's limit. */
export const PATHS_PER_CALL = 200;

/**
 * Stops and unloads jobs of one domain with one `launchctl bootout <domain> <plist>…` (launchctl
 * takes a series of paths and removes the service each defines), for the jobs whose plist is in
 * place and still names their label; the others, and every job of a call that failed, are booted
 * out alone by their service target, where a label no longer loaded is fine (3, 36, 112,
 * 113), so the failure is pinned on the job that caused it. Bootout returns before launchd has
 * let go of the labels, and a bootstrap in that window fails with "5: Input/output error", so with
 * `wait` this polls `launchctl print <domain>` until none of them is loaded, for up to ten seconds;
 * past that the bootstrap that follows retries on its own. Resolves with the failures by key.
 */
export async function bootoutJobs(domain: string, jobs: JobChange[], ctx: ApplyContext, options: { wait: boolean }): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  if (jobs.length === 0) return failures;
  const byPath: JobChange[] = [];
  const alone: JobChange[] = [];
  for (const j of jobs) (plistNamesLabel(await ctx.files.readFile(j.job.path).catch(() => null), j.job.label) ? byPath : alone).push(j);
  for (let at = 0; at < byPath.length; at += PATHS_PER_CALL) {
    const chunk = byPath.slice(at, at + PATHS_PER_CALL);
    const batch = await ctx.run.run({ argv: ["launchctl", "bootout", domain, ...chunk.map(({ job }) => job.path)], okCodes: "any" });
    if (batch.exitCode !== 0 && batch.exitCode !== LAUNCHCTL_EXIT.inProgress) alone.push(...chunk);
  }
  for (const { change, job } of alone) {
    try {
      await bootoutTarget(job.target, ctx);
    } catch (error) {
      failures.set(change.key, error);
    }
  }
  if (options.wait) await waitUntilUnloaded(domain, jobs.filter(({ change }) => !failures.has(change.key)), ctx);
  return failures;
}

/** `launchctl bootout <domain>/<label>`: a label that is not loaded, or a domain that is gone, is fine. */
export async function bootoutTarget(target: string, ctx: ApplyContext): Promise<void> {
  const { noSuchProcess, inProgress, noDomain, noService } = LAUNCHCTL_EXIT;
  await ctx.run.run({ argv: ["launchctl", "bootout", target], okCodes: [0, noSuchProcess, inProgress, noDomain, noService] });
}

/** Whether a plist's text has this `Label` (the path form of bootout goes by what the file says). */
function plistNamesLabel(text: string | null, label: string): boolean {
  const match = text === null ? null : /<key>Label<\/key>\s*<string>([^<]*)<\/string>/.exec(text);
  return match?.[1] === label;
}

async function waitUntilUnloaded(domain: string, jobs: JobChange[], ctx: ApplyContext): Promise<void> {
  let pending = jobs;
  for (let waited = 0; pending.length > 0 && waited < UNLOAD_WAIT_MS; waited += POLL_MS) {
    const loaded = await loadedLabels(pending, await readDomain(domain, ctx), ctx);
    pending = pending.filter(({ job }) => loaded.has(job.label));
    if (pending.length > 0) await ctx.sleep(POLL_MS);
  }
}
