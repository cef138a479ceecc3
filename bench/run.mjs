// `pnpm bench`: tend's benchmarks, each against a goal or a floor, printed as a table.
// Usage: node bench/run.mjs [--short] [--fleet]   (build first: pnpm build; --fleet needs Docker)
import { cleanUp } from "./measure.mjs";
import { scale } from "./scale.mjs";
import { startup } from "./startup.mjs";

const short = process.argv.includes("--short");
const rows = [...startup({ short }), ...scale({ short })];
if (process.argv.includes("--fleet")) rows.push(...(await (await import("./fleet.mjs")).fleet({ short })));
cleanUp();
let failed = 0;
for (const row of rows) {
  const value = row.count !== undefined ? `${row.count}` : `${row.ms.toFixed(0)} ms`;
  let verdict = "";
  if (row.ratio !== undefined) verdict = `${row.ratio.toFixed(2)}x ${row.of}${row.goal ? ` (goal <= ${row.goal}x)` : ""}`;
  if (row.limitMs !== undefined) verdict = `(goal <= ${row.limitMs / 1000} s)`;
  if (row.count !== undefined && row.goal !== undefined) verdict = `(goal <= ${row.goal})`;
  const over = (row.ratio !== undefined && row.goal !== undefined && row.ratio > row.goal) || (row.limitMs !== undefined && row.ms > row.limitMs) || (row.count !== undefined && row.goal !== undefined && row.count > row.goal);
  if (over) failed += 1;
  console.log(`${row.name.padEnd(58)} ${value.padStart(10)}  ${verdict}${over ? "  MISSED" : ""}`);
}
if (failed > 0) console.log(`\n${failed} goal(s) missed`);
