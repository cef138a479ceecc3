import { checkExit, type ApplyContext, type Command, type CommandResult } from "@tend/core/contract";
import { PATHS_PER_CALL } from "./bootout-jobs.js";
import type { JobChange } from "./job-change.js";
import { LAUNCHCTL_EXIT } from "./launchctl-exit.js";
import { loadedLabels } from "./loaded-labels.js";
import { readDomain } from "./read-domain.js";

const RETRY_MS = 1_000;
const RETRY_FOR_MS = 15_000;
/** Right after a bootout launchd may still hold a label: `5: Input/output error`, `37: Operation already in progress`. */
const DRAINING = new Set<number>([LAUNCHCTL_EXIT.inputOutput, LAUNCHCTL_EXIT.alreadyInProgress]);

/**
 * Loads jobs into one domain (and, with `RunAtLoad` or `KeepAlive`, starts them) with one
 * `launchctl bootstrap <domain> <plist>…`: launchctl takes a series of paths, loads each, and
 * prints the ones that failed with their errors. When it fails, one `launchctl print <domain>`
 * tells which labels did not load; while every failure was one a draining label gives (5, 37),
 * those are tried again every second for about 15 s. A job still not loaded then fails with
 * launchctl's own words for it: those of its last attempt when it was bootstrapped alone, else
 * of one more bootstrap of it alone (a disabled label, 119, is not retried). Resolves with the
 * failures by key.
 */
export async function bootstrapJobs(domain: string, jobs: JobChange[], ctx: ApplyContext): Promise<Map<string, unknown>> {
  let pending = jobs;
  let alone = new Map<string, { command: Command; result: CommandResult }>();
  for (let waited = 0; pending.length > 0; waited += RETRY_MS) {
    alone = new Map();
    const codes: number[] = [];
    for (let at = 0; at < pending.length; at += PATHS_PER_CALL) {
      const chunk = pending.slice(at, at + PATHS_PER_CALL);
      const command: Command = { argv: ["launchctl", "bootstrap", domain, ...chunk.map(({ job }) => job.path)], okCodes: "any" };
      const result = await ctx.run.run(command);
      codes.push(result.exitCode);
      if (chunk.length === 1) alone.set(chunk[0]!.change.key, { command: { ...command, okCodes: [0] }, result });
    }
    if (codes.every((code) => code === 0)) return new Map();
    const loaded = await loadedLabels(pending, await readDomain(domain, ctx), ctx);
    pending = pending.filter(({ job }) => !loaded.has(job.label));
    if (waited >= RETRY_FOR_MS || !codes.every((code) => code === 0 || DRAINING.has(code))) break;
    if (pending.length > 0) await ctx.sleep(RETRY_MS);
  }
  const failures = new Map<string, unknown>();
  for (const { change, job } of pending) {
    try {
      const last = alone.get(change.key);
      if (last) checkExit(last.command, last.result);
      else await ctx.run.run({ argv: ["launchctl", "bootstrap", domain, job.path] });
    } catch (error) {
      failures.set(change.key, error);
    }
  }
  return failures;
}
