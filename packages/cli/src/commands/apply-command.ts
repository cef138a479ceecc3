import type { CliIo } from "../cli-io.js";
import type { CommandLine } from "../parse-command-line.js";
import { openSession } from "./open-session.js";

/** Exit codes for an apply a signal stopped, as a shell reports a process the signal ended (128 + n). */
const SIGNAL_EXIT: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

export async function applyCommand(line: CommandLine, io: CliIo): Promise<number> {
  const { formatPlan, hasChanges, applyPlan, ApplyAborted, formatError, moreErrors } = await import("@tend/core");
  // Each step is printed as it happens, not when the apply ends.
  const session = await openSession(line, { log: (text) => io.out(`${text}\n`) });
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
  try {
    const { plan, state, assigned } = await session.buildPlan({ adopt: line.adopt });
    io.out(formatPlan(plan, io.paint));
    if (controller.signal.aborted) throw new ApplyAborted("planning, before changing anything");
    if (!hasChanges(plan) && !session.stateStore.unsaved) return 0;
    const report = await applyPlan(session, plan, state, assigned, { adopt: line.adopt, signal: controller.signal });
    for (const failure of report.failures) io.err(formatError(failure, io.paintErr));
    io.out(report.ok ? `apply: done\n` : `apply: ${report.failures.length} failed\n`);
    return report.ok ? 0 : 1;
  } catch (error) {
    if (!(error instanceof ApplyAborted)) throw error;
    const signal = received ?? "SIGTERM";
    io.err(formatError(moreErrors.interrupted(signal, error.step), io.paintErr));
    return SIGNAL_EXIT[signal] ?? 1;
  } finally {
    for (const signal of signals) process.off(signal, stop);
    lock.release();
  }
}
