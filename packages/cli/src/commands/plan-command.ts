import type { CliIo } from "../cli-io.js";
import type { CommandLine } from "../parse-command-line.js";
import { openSession } from "./open-session.js";

export async function planCommand(line: CommandLine, io: CliIo): Promise<number> {
  const { formatPlan, planToJson, hasChanges } = await import("@tend/core");
  const session = await openSession(line);
  const { plan } = await session.buildPlan({ adopt: line.adopt });
  io.out(line.json ? `${JSON.stringify(planToJson(plan), null, 2)}\n` : formatPlan(plan, io.paint));
  return line.detailedExitcode && hasChanges(plan) ? 2 : 0;
}
