import type { CliIo } from "../cli-io.js";
import type { CommandLine } from "../command-line/parse-command-line.js";
import { openSession } from "./open-session.js";

/** Exit codes for an apply a signal stopped, as a shell reports a process the signal ended (128 + n). */
const SIGNAL_EXIT: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/**
 * Takes the scope's lock, plans under it, prints the plan, carries it out printing each step as
 * it happens (a live progress line on a terminal; JSON events with --json-stream), then verifies.
 */
export async function applyCommand(line: CommandLine, io: CliIo): Promise<number> {
  if (line.hosts !== undefined) return (await import("./fleet-command.js")).fleetCommand(line, io);
  const core = await import("@tend/core/runtime");
  const { formatPlan, hasChanges, applyPlan, ApplyAborted, moreErrors, planToJson, TendErrors } = core;
  const steps: string[] = [];
  const session = await openSession(line, {
    log: (text) => {
      steps.push(text);
      io.out(`${text}\n`);
      io.event({ event: "step", text });
    },
  });
  const lock = session.lock();
  await lock.acquire(line.lockTimeout * 1000);
  // A signal (Ctrl-C, a lost SSH session, a service manager stopping us) lets the current step
  // finish and the state be saved; the next apply resumes from the journal. A second one ends
  // tend at once (the journal keeps that safe too).
  const controller = new AbortController();
  let received: string | undefined;
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  const stop = (signal: string) => {
    received = signal;
    for (const s of signals) process.off(s, stop);
    controller.abort();
  };
  for (const signal of signals) process.on(signal, stop);
  let planJson: unknown;
  try {
    const { plan, state, assigned } = await session.buildPlan({ adopt: line.adopt });
    const diffs = line.diff ? await import("../output/file-diffs.js") : undefined;
    // Only a JSON document or event stream carries it; a big plan's JSON would otherwise be held through the whole apply.
    if (io.json) planJson = { ...(planToJson(plan) as object), ...(diffs ? { diffs: diffs.planDiffs(plan, core) } : {}) };
    io.out(formatPlan(plan, io.paint));
    if (diffs) io.out(diffs.diffSection(plan, io.paint, core));
    io.event({ event: "plan", plan: planJson });
    if (controller.signal.aborted) throw new ApplyAborted("planning, before changing anything");
    if (!hasChanges(plan) && !session.stateStore.unsaved) {
      io.result({ plan: planJson, steps, applied: false });
      return 0;
    }
    const report = await applyPlan(session, plan, state, assigned, {
      adopt: line.adopt,
      signal: controller.signal,
      progress: (event) => {
        io.progress?.update(event);
        io.event({ event: "progress", ...event });
      },
    });
    io.progress?.stop();
    // One report: a person reads one error per set that differs only in its resource (--json keeps each).
    if (report.failures.length > 0) io.report(report.failures.length === 1 ? report.failures[0] : new TendErrors(report.failures));
    io.out(report.ok ? `apply: done\n` : `apply: ${report.failures.length} failed\n`);
    io.result({ plan: planJson, steps, applied: true });
    return report.ok ? 0 : 1;
  } catch (error) {
    io.progress?.stop();
    if (!(error instanceof ApplyAborted)) throw error;
    const signal = received ?? "SIGTERM";
    io.report(moreErrors.interrupted(signal, error.step));
    io.result({ plan: planJson, steps, applied: true, stoppedBy: signal });
    return SIGNAL_EXIT[signal] ?? 1;
  } finally {
    for (const signal of signals) process.off(signal, stop);
    lock.release();
  }
}
