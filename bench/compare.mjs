// The CI check of bench/run.mjs --check: a ratio (tend against its floor or a smaller run) may
// grow to TOLERANCE times its baseline before it fails. Absolute times are never compared: CI
// machines differ, ratios of two things measured side by side on one machine much less.

export const TOLERANCE = 2;

/** The rows whose ratio is more than `tolerance` times the baseline's ratio of the same name. */
export function regressions(rows, baselineRatios, tolerance = TOLERANCE) {
  const found = [];
  for (const row of rows) {
    if (row.ratio === undefined) continue;
    const base = baselineRatios[row.name];
    if (typeof base !== "number") continue;
    if (row.ratio > base * tolerance) found.push({ name: row.name, ratio: row.ratio, baseline: base });
  }
  return found;
}
