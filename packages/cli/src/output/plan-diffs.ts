import type { Plan } from "@tend/core/runtime";
import type { SecretRules } from "./secret-rules.js";
import { unifiedDiff } from "./unified-diff.js";

/** Each file or link a plan writes or deletes, as `{ key, path, diff }` for the JSON document (secrets masked). */
export function planDiffs(plan: Plan, rules: SecretRules): { key: string; path: string; diff: string }[] {
  const out: { key: string; path: string; diff: string }[] = [];
  for (const entry of plan.entries) {
    if (entry.action === "none") continue;
    // The old content holds the values the state recorded: mask those too.
    const secretsOf = (r: typeof entry.resource | undefined) => (r && (r.type === "service" || r.type === "timer") ? rules.secretValues(r.env) : []);
    const secrets = { before: secretsOf(entry.previous ?? entry.resource), after: secretsOf(entry.resource) };
    for (const write of entry.writes) {
      if (write.why === "unrecorded" || write.why === "attributes" || write.artifact.store === "directory") continue;
      out.push({ key: entry.key, path: write.artifact.path, diff: unifiedDiff(write.artifact.path, write.current, write.content, rules.SECRET_NAME, secrets) });
    }
  }
  return out;
}
