import type { CliIo } from "../cli-io.js";
import type { CommandLine } from "../command-line/parse-command-line.js";
import { openSession } from "./open-session.js";

/** Observes the host and prints the plan (and with --diff how each file changes); changes nothing. */
export async function planCommand(line: CommandLine, io: CliIo): Promise<number> {
  if (line.hosts !== undefined) return (await import("./fleet-command.js")).fleetCommand(line, io);
  const core = await import("@tend/core/runtime");
  const { formatPlan, planToJson, hasChanges } = core;
  const session = await openSession(line);
  const { plan } = await session.buildPlan({ adopt: line.adopt });
  io.out(formatPlan(plan, io.paint));
  const diffs = line.diff ? await import("../output/file-diffs.js") : undefined;
  if (diffs) io.out(diffs.diffSection(plan, io.paint, core));
  io.result({ ...(planToJson(plan) as object), ...(diffs ? { diffs: diffs.planDiffs(plan, core) } : {}) });
  return line.detailedExitcode && hasChanges(plan) ? 2 : 0;
}
