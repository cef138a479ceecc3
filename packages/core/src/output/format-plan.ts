import { planCounts, type Plan, type PlanEntry } from "../plan/plan-types.js";
import { PLAIN, type Paint } from "./paint.js";

/** The plan as people read it (the seed's layout). */
export function formatPlan(plan: Plan, paint: Paint = PLAIN): string {
  const scope = plan.scope.kind === "user" ? `, user ${plan.scope.user}` : "";
  const lines = [`host ${plan.host.name} (${plan.initDisplayName}${scope})`];
  for (const warning of plan.warnings) lines.push(`  ${paint.yellow("!")} ${warning}`);
  for (const entry of plan.entries) lines.push(...formatEntry(entry, paint));
  const counts = planCounts(plan);
  lines.push(`  ${counts.add} to add, ${counts.change} to change, ${counts.remove} to remove`);
  if (plan.otherScope) {
    const { count, scope, command } = plan.otherScope;
    lines.push(`  ${paint.dim(`(${count} ${scope}-scope resource${count === 1 ? " is" : "s are"} not in this run: ${command})`)}`);
  }
  return `${lines.join("\n")}\n`;
}

function formatEntry(entry: PlanEntry, paint: Paint): string[] {
  const detail = (label: string, text: string) => `      ${paint.dim(label)}  ${text}`;
  const blockers = [
    ...entry.refusals.map((r) => `  ${paint.red("!")} ${entry.key} refused: ${r.path} is ${r.what}; apply never writes through or over it`),
    ...entry.conflicts.map((path) => `  ${paint.red("!")} ${entry.key} conflict: ${path} exists and tend did not write it; apply refuses it without --adopt`),
    ...entry.orphans.map((path) => `  ${paint.red("!")} ${entry.key} orphan: ${path} carries tend's header, but no state records it; apply --adopt takes it back`),
    ...entry.editedDeletions.map((path) => `  ${paint.red("!")} ${entry.key} conflict: ${path} was edited since tend wrote it; apply deletes it only with --adopt, keeping a backup`),
  ];
  const warnings = entry.warnings.map((w) => `  ${paint.yellow("!")} ${entry.key} warning: ${w}`);
  switch (entry.action) {
    case "none":
      return warnings;
    case "add":
      if (blockers.length > 0) return [...blockers, ...warnings];
      return [`  ${paint.green("+")} ${entry.key}  ${entry.summary}`, ...entry.reasons.map((r) => detail("reason", r)), ...warnings];
    case "remove":
      return [`  ${paint.red("-")} ${entry.key}`, ...blockers, ...warnings];
    case "change": {
      const out: string[] = [...blockers];
      if (entry.drift.length > 0) out.push(`  ${paint.yellow("!")} ${entry.key} drifted: ${entry.drift.join("; ")}`);
      const what = entry.ops.length > 0 ? entry.ops.join(", ") : changeWithoutOps(entry);
      if (out.length === 0) out.push(`  ${paint.yellow("~")} ${entry.key}  ${what}`);
      else if (what) out.push(detail("then", what));
      out.push(...entry.reasons.map((r) => detail("reason", r)), ...(entry.alsoRestarts ?? []).map((key) => detail("also", `restarts ${key}, which comes after it`)), ...warnings);
      return out;
    }
  }
}

function changeWithoutOps(entry: PlanEntry): string {
  if (entry.writes.length === 0) return "";
  if (entry.writes.every((w) => w.why === "unrecorded")) return "record its files (an earlier apply stopped before it could)";
  if (entry.writes.every((w) => w.why === "attributes" || w.why === "unrecorded")) return "set the permissions of its files";
  return "rewrite its files";
}

/** The plan as data, for `tend plan --json`. */
export function planToJson(plan: Plan): unknown {
  return {
    host: plan.host.name,
    init: plan.host.init,
    scope: plan.scope.kind === "user" ? { kind: "user", user: plan.scope.user } : { kind: "system" },
    serial: plan.serial,
    counts: planCounts(plan),
    warnings: plan.warnings,
    ...(plan.otherScope ? { otherScope: plan.otherScope } : {}),
    changes: plan.entries
      .filter((e) => e.action !== "none" || e.warnings.length > 0)
      .map((e) => ({
        key: e.key,
        action: e.action,
        provider: e.provider,
        summary: e.summary,
        ops: e.ops,
        reasons: e.reasons,
        ...(e.alsoRestarts ? { alsoRestarts: e.alsoRestarts } : {}),
        drift: e.drift,
        conflicts: e.conflicts,
        orphans: e.orphans,
        editedDeletions: e.editedDeletions,
        refusals: e.refusals,
        warnings: e.warnings,
        files: e.writes.map((w) => ({ path: w.artifact.path, store: w.artifact.store ?? "file", change: w.content === null ? "delete" : w.why === "attributes" ? "attributes" : "write", why: w.why })),
      })),
  };
}
