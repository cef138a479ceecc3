import type { Paint, Plan } from "@tend/core/runtime";
import { planDiffs } from "./plan-diffs.js";
import type { SecretRules } from "./secret-rules.js";

/** Every file and link a plan writes or deletes, as unified diffs, coloured for a terminal. */
export function diffSection(plan: Plan, paint: Paint, rules: SecretRules): string {
  const colour = (line: string) => {
    if (line.startsWith("+") && !line.startsWith("+++")) return paint.green(line);
    if (line.startsWith("-") && !line.startsWith("---")) return paint.red(line);
    return line.startsWith("@@") ? paint.cyan(line) : line;
  };
  return planDiffs(plan, rules)
    .map(({ diff }) => diff.split("\n").map(colour).join("\n"))
    .join("");
}
