import type { CliIo } from "../cli-io.js";
import type { CommandLine } from "../command-line/parse-command-line.js";
import { diffSection } from "../output/diff-section.js";
import { planDiffs } from "../output/plan-diffs.js";
import { openSession } from "./open-session.js";

/** Observes the host and prints the plan (and with --diff how each file changes); changes nothing. */
export async function planCommand(line: CommandLine, io: CliIo): Promise<number> {
  if (line.hosts !== undefined) return (await import("./fleet-command.js")).fleetCommand(line, io);
  const { formatPlan, planToJson, hasChanges } = await import("@tend/core");
  const session = await openSession(line);
  const { plan } = await session.buildPlan({ adopt: line.adopt });
  io.out(formatPlan(plan, io.paint));
  if (line.diff) io.out(diffSection(plan, io.paint));
  io.result({ ...(planToJson(plan) as object), ...(line.diff ? { diffs: planDiffs(plan) } : {}) });
  return line.detailedExitcode && hasChanges(plan) ? 2 : 0;
}
