// `pnpm bench`: tend's benchmarks, each against a floor or a goal, printed as a table.
// Usage: node bench/run.mjs [--short] [--check] [--write] [--no-containers] [--fleet]   (build first: pnpm build)
//   --short          fewer sizes and runs (CI)
//   --check          exit 1 when a ratio is more than 2x its baseline (bench/baseline.json); absolute
//                    times never fail a run, the machine may be slower or busier than the baseline's
//   --write          write bench/RESULTS.md (machine, date, every row) and the ratios to bench/baseline.json
//                    (each baseline ratio keeps the larger of its old and new value)
//   --no-containers  the host benchmarks only (no Docker)
//   --fleet          also bench/fleet.mjs (needs Docker)
// A suite is one entry of SUITES: a function returning rows { name, ms | count, ratio?, of?, goal?,
// limitMs? }; a row with a ratio is compared with the baseline by its name.
import { readFileSync, writeFileSync } from "node:fs";
import { regressions as findRegressions, TOLERANCE } from "./compare.mjs";
import { containers } from "./containers.mjs";
import { cleanUp } from "./measure.mjs";
import { machine, resultsMarkdown } from "./report.mjs";
import { scale } from "./scale.mjs";
import { startup } from "./startup.mjs";

const BASELINE = new URL("./baseline.json", import.meta.url);
const RESULTS = new URL("./RESULTS.md", import.meta.url);

const args = process.argv.slice(2);
const short = args.includes("--short");
const SUITES = [
  { name: "startup", run: startup },
  { name: "scale", run: scale },
  { name: "containers", run: containers, skip: args.includes("--no-containers") },
  { name: "fleet", run: async (options) => (await import("./fleet.mjs")).fleet(options), skip: !args.includes("--fleet") },
];

async function measure() {
  const rows = [];
  for (const suite of SUITES.filter((s) => !s.skip)) {
    const started = Date.now();
    try {
      rows.push(...(await suite.run({ short })));
    } finally {
      cleanUp();
    }
    console.error(`[bench] ${suite.name} took ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  return rows;
}

let rows = await measure();
const baseline = readBaseline();
if (args.includes("--check") && findRegressions(rows, baseline.ratios).length > 0) {
  // A busy machine makes small times noisy: a regression counts when a second run confirms it
  // (each row keeps the better of its two ratios).
  console.error(`[bench] ${findRegressions(rows, baseline.ratios).map((r) => r.name).join("; ")}: past ${TOLERANCE}x the baseline, measuring again to confirm`);
  const again = new Map((await measure()).map((row) => [row.name, row]));
  rows = rows.map((row) => {
    const other = again.get(row.name);
    return other?.ratio !== undefined && row.ratio !== undefined && other.ratio < row.ratio ? other : row;
  });
}
let missed = 0;
const regressions = findRegressions(rows, baseline.ratios).map((r) => `${r.name}: ${r.ratio.toFixed(2)}x, baseline ${r.baseline.toFixed(2)}x`);
for (const row of rows) {
  const value = row.count !== undefined ? `${row.count}` : `${row.ms.toFixed(0)} ms`;
  let verdict = "";
  if (row.ratio !== undefined) verdict = `${row.ratio.toFixed(2)}x ${row.of}${row.goal ? ` (goal <= ${row.goal}x)` : ""}`;
  else if (row.of !== undefined) verdict = row.of;
  if (row.limitMs !== undefined) verdict = `(goal <= ${row.limitMs / 1000} s)`;
  if (row.count !== undefined && row.goal !== undefined) verdict = `(goal <= ${row.goal})`;
  const over = (row.ratio !== undefined && row.goal !== undefined && row.ratio > row.goal) || (row.limitMs !== undefined && row.ms > row.limitMs) || (row.count !== undefined && row.goal !== undefined && row.count > row.goal);
  if (over) missed += 1;
  const base = row.ratio !== undefined ? baseline.ratios[row.name] : undefined;
  const regressed = base !== undefined && row.ratio > base * TOLERANCE;
  const note = `${over ? "  MISSED" : ""}${base !== undefined ? `  [baseline ${base.toFixed(2)}x${regressed ? ", REGRESSED" : ""}]` : ""}`;
  console.log(`${row.name.padEnd(60)} ${value.padStart(10)}  ${verdict}${note}`);
}
if (missed > 0) console.log(`\n${missed} goal(s) missed`);

if (args.includes("--write")) {
  const info = machine();
  writeFileSync(RESULTS, resultsMarkdown(rows, info, short));
  // A baseline ratio keeps the larger of its old and new values: one quiet run must not make CI's
  // check fail on the next busy one (ratios of small times swing with the machine's load).
  const ratios = Object.fromEntries(rows.filter((r) => r.ratio !== undefined).map((r) => [r.name, Math.max(Number(r.ratio.toFixed(3)), baseline.ratios[r.name] ?? 0)]));
  writeFileSync(BASELINE, `${JSON.stringify({ measured: info.date, machine: `${info.cpu}, ${info.cores} cores`, ratios: { ...baseline.ratios, ...ratios } }, null, 2)}\n`);
  console.log(`\nwrote ${RESULTS.pathname} and ${BASELINE.pathname}`);
}
if (args.includes("--check")) {
  if (regressions.length > 0) {
    console.log(`\n${regressions.length} ratio(s) more than ${TOLERANCE}x their baseline:\n  ${regressions.join("\n  ")}`);
    process.exitCode = 1;
  } else console.log(`\nno ratio more than ${TOLERANCE}x its baseline`);
}

function readBaseline() {
  try {
    return JSON.parse(readFileSync(BASELINE, "utf8"));
  } catch {
    return { ratios: {} };
  }
}
