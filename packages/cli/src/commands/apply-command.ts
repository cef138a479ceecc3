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
    const report = await applyPlan(session, plan, state, assigned, { adopt: line.adopt });
    for (const text of report.lines) io.out(`${text}\n`);
    for (const failure of report.failures) io.err(formatError(failure, io.paintErr));
    io.out(report.ok ? `apply: done\n` : `apply: ${report.failures.length} failed\n`);
    return report.ok ? 0 : 1;
  } finally {
    await lock.release();
  }
}
