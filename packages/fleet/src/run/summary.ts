import type { HostOutcome } from "./run-fleet.js";

/** Seconds with one decimal: `1.4s`. */
function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

/** The closing table: host, init, added / changed / removed / failed, status, time. */
export function summaryTable(outcomes: readonly HostOutcome[]): string {
  const rows = [["HOST", "INIT", "ADDED", "CHANGED", "REMOVED", "FAILED", "STATUS", "TIME"]];
  for (const o of outcomes) rows.push([o.name, o.init || "-", String(o.counts.add), String(o.counts.change), String(o.counts.remove), String(o.counts.failed), o.status, seconds(o.ms)]);
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  const numeric = new Set([2, 3, 4, 5, 7]);
  return rows.map((r) => r.map((cell, col) => (numeric.has(col) ? cell.padStart(widths[col]!) : cell.padEnd(widths[col]!))).join("  ").trimEnd()).join("\n") + "\n";
}

/**
 * The exit code of a fleet run: 1 when any host failed (unreachable and locked hosts count as
 * failed), else 2 for `plan --detailed-exitcode` when any host has changes, else 0.
 */
export function fleetExitCode(outcomes: readonly HostOutcome[], detailedExitcode = false): number {
  if (outcomes.some((o) => o.status !== "ok")) return 1;
  if (detailedExitcode && outcomes.some((o) => o.changes)) return 2;
  return 0;
}

/** `--json`'s result of a fleet run: one entry per host. */
export function fleetJson(command: "plan" | "apply", outcomes: readonly HostOutcome[]): unknown {
  return {
    hosts: outcomes.map((o) => ({
      name: o.name,
      init: o.init || null,
      status: o.status,
      counts: o.counts,
      changes: o.changes,
      seconds: Math.round(o.ms) / 1000,
      ...(o.plan !== undefined ? { plan: o.plan } : {}),
      ...(command === "apply" ? { applied: o.applied, steps: o.steps } : {}),
      errors: o.errors.map((e) => ({ code: e.code, message: e.message, ...(e.hint ? { hint: e.hint } : {}) })),
    })),
  };
}
