import { INIT_DISPLAY_NAMES } from "../contract/host.js";
import { planCounts, type Plan, type PlanEntry } from "../plan/plan-types.js";
import { painter, type Paint } from "./paint.js";

/** The plan as people read it (the seed's layout). */
export function formatPlan(plan: Plan, paint: Paint = painter(false)): string {
  const scope = plan.scope.kind === "user" ? `, user ${plan.scope.user}` : "";
  const lines = [`host ${plan.host.name} (${INIT_DISPLAY_NAMES[plan.host.init]}${scope})`];
  for (const entry of plan.entries) lines.push(...formatEntry(entry, paint));
  const counts = planCounts(plan);
  lines.push(`  ${counts.add} to add, ${counts.change} to change, ${counts.remove} to remove`);
  return `${lines.join("\n")}\n`;
}

function formatEntry(entry: PlanEntry, paint: Paint): string[] {
  const detail = (label: string, text: string) => `      ${paint.dim(label)}  ${text}`;
  const conflict =
    entry.conflicts.length > 0
      ? [`  ${paint.red("!")} ${entry.key} conflict: ${entry.conflicts.join(", ")} exists and tend did not write it; apply refuses it without --adopt`]
      : [];
  if (entry.action === "add" && conflict.length > 0) return conflict;
  switch (entry.action) {
    case "none":
      return [];
    case "add":
      return [`  ${paint.green("+")} ${entry.key}  ${entry.summary}`, ...entry.reasons.map((r) => detail("reason", r))];
    case "remove":
      return [`  ${paint.red("-")} ${entry.key}`];
    case "change": {
      const out: string[] = [...conflict];
      if (entry.drift.length > 0) out.push(`  ${paint.yellow("!")} ${entry.key} drifted: ${entry.drift.join("; ")}`);
      const what = entry.ops.length > 0 ? entry.ops.join(", ") : entry.writes.length > 0 ? "rewrite its files" : "";
      if (out.length === 0) out.push(`  ${paint.yellow("~")} ${entry.key}  ${what}`);
      else if (what) out.push(detail("then", what));
      out.push(...entry.reasons.map((r) => detail("reason", r)));
      return out;
    }
  }
}

/** The plan as data, for `tend plan --json`. */
export function planToJson(plan: Plan): unknown {
  return {
    host: plan.host.name,
    init: plan.host.init,
    scope: plan.scope.kind === "user" ? { kind: "user", user: plan.scope.user } : { kind: "system" },
    serial: plan.serial,
    counts: planCounts(plan),
    changes: plan.entries
      .filter((e) => e.action !== "none")
      .map((e) => ({
        key: e.key,
        action: e.action,
        provider: e.provider,
        summary: e.summary,
        ops: e.ops,
        reasons: e.reasons,
        drift: e.drift,
        conflicts: e.conflicts,
        files: e.writes.map((w) => ({ path: w.artifact.path, store: w.artifact.store ?? "file", change: w.content === null ? "delete" : "write", why: w.why })),
      })),
  };
}
