import { errors, TendError, type ApplyContext, type CommandResult } from "@tend/core/contract";
import { parseSvStatus, parseSvStatusLine, type SvStatus } from "./parse-sv-status.js";
import { controlLetter, writeSuperviseControl } from "./write-supervise-control.js";
import { SV_ANSWERED, SV_BATCH } from "./sv-limits.js";
import { svAsUser, svInProcess } from "./sv-as.js";

/** One service directory a batched sv command acts on, and the resource it belongs to. */
export interface SvTarget {
  key: string;
  dir: string;
}

export interface SvBatchOptions {
  /**
   * Which of sv's lines are failures, when not every failure sv counts is one (`fail: …: runsv
   * not running` is fine when bringing a service down for removal). sv's exit code is then not
   * checked. Default: every `timeout:` line and `fail:` or `warning:` line, and an exit code that no
   * line explains is retried directory by directory.
   */
  failed?: (status: SvStatus) => boolean;
}

/** `timeout:`, and `fail:` or `warning:` without sv's `ok:` (`ok: DIR: runsv not running` is what `sv -v exit` waits for). */
const FAILED = (status: SvStatus) => status.checked === false || (status.error !== undefined && status.checked !== true);

/** A failure by sv's default rule, except `fail: DIR: runsv not running`: for a service whose runsv may be gone by design. */
export const failedUnlessRunsvGone = (status: SvStatus): boolean => FAILED(status) && status.error !== "runsv not running";

/**
 * Runs `sv ARGS… DIR…` once for many service directories (in chunks of {@link SV_BATCH}) and
 * pins each failure on its resource: sv exits with the number of directories it failed on and
 * prints a line naming each, so a directory whose line is a failure failed and the others did
 * not. When sv fails without naming a directory, or does not run at all, each directory of the
 * chunk is tried alone. Resolves with the failures by resource key. On this machine's own files,
 * a command that only writes its letter to `supervise/control` (`up`, `term`, `hup`…) is written
 * there as sv writes it, without starting sv (writeSuperviseControl), unless sv acts as another
 * user (svAsUser).
 */
export async function svBatch(ctx: ApplyContext, args: string[], targets: SvTarget[], options: SvBatchOptions = {}): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  const letter = controlLetter(args);
  if (letter && svInProcess(ctx)) {
    // On this machine's files, a command that only writes its letter is done as sv does it.
    for (const target of targets) {
      const line = writeSuperviseControl(target.dir, ctx.files.real(target.dir), letter);
      const status = line === undefined ? undefined : parseSvStatusLine(line, target.dir);
      if (line !== undefined && (status === undefined || (options.failed ?? FAILED)(status))) failures.set(target.key, errors.commandFailed(["sv", ...args, target.dir], 1, line));
    }
    return failures;
  }
  for (let at = 0; at < targets.length; at += SV_BATCH) {
    const chunk = targets.slice(at, at + SV_BATCH);
    const argv = ["sv", ...args, ...chunk.map((t) => t.dir)];
    let result: CommandResult;
    try {
      result = await ctx.run.run({ argv, okCodes: SV_ANSWERED, timeoutMs: 30_000, ...svAsUser(ctx) });
    } catch (error) {
      if (chunk.length === 1 || !TendError.isInstance(error)) for (const target of chunk) failures.set(target.key, error);
      else await oneByOne(ctx, args, chunk, failures);
      continue;
    }
    const statuses = parseSvStatus(`${result.stdout}\n${result.stderr}`, chunk.map((t) => t.dir));
    const pinned = chunk.filter((t) => {
      const status = statuses.get(t.dir);
      return status !== undefined && (options.failed ?? FAILED)(status);
    });
    if (pinned.length === 0 && (result.exitCode === 0 || options.failed)) continue;
    if (chunk.length === 1) {
      failures.set(chunk[0]!.key, errors.commandFailed(argv, result.exitCode, detail(result)));
    } else if (pinned.length > 0) {
      // Worded as if sv had run for that directory alone, which counts 1 in sv's exit code.
      for (const target of pinned) failures.set(target.key, errors.commandFailed(["sv", ...args, target.dir], 1, statuses.get(target.dir)!.line));
    } else {
      await oneByOne(ctx, args, chunk, failures);
    }
  }
  return failures;
}

async function oneByOne(ctx: ApplyContext, args: string[], chunk: SvTarget[], failures: Map<string, unknown>): Promise<void> {
  for (const target of chunk) {
    try {
      await ctx.run.run({ argv: ["sv", ...args, target.dir], timeoutMs: 30_000, ...svAsUser(ctx) });
    } catch (error) {
      failures.set(target.key, error);
    }
  }
}

function detail(result: CommandResult): string {
  return (result.stderr.trim() || result.stdout.trim()).split("\n").slice(-5).join("\n");
}
