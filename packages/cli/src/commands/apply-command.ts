import type { CliIo } from "../cli-io.js";
import type { CommandLine } from "../parse-command-line.js";
import { openSession } from "./open-session.js";

export async function applyCommand(line: CommandLine, io: CliIo): Promise<number> {
  const { formatPlan, hasChanges, applyPlan, ScopeLock, formatError } = await import("@tend/core");
  const session = await openSession(line);
  const lock = new ScopeLock(session.lockPath());
  await lock.acquire(line.lockTimeout * 1000);
  try {
    const { plan, state, assigned } = await session.buildPlan({ adopt: line.adopt });
    io.out(formatPlan(plan, io.paint));
    if (!hasChanges(plan)) return 0;
    // A signal (Ctrl-C, a lost SSH session, a service manager stopping us) lets the current step
    // finish and the state be saved; the next apply resumes from the journal.
    const controller = new AbortController();
    const stop = () => controller.abort();
    const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
    for (const signal of signals) process.on(signal, stop);
    let report;
    try {
      report = await applyPlan(session, plan, state, assigned, { adopt: line.adopt, signal: controller.signal });
    } finally {
      for (const signal of signals) process.off(signal, stop);
    }
    for (const text of report.lines) io.out(`${text}\n`);
    for (const failure of report.failures) io.err(formatError(failure, io.paintErr));
    io.out(report.ok ? `apply: done\n` : `apply: ${report.failures.length} failed\n`);
    return report.ok ? 0 : 1;
  } finally {
    await lock.release();
  }
}
