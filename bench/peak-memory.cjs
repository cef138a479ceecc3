// Preloaded (node -r) by bench/measure.mjs's runWithPeak: writes the process's peak resident set
// in kB to the file named by TEND_BENCH_PEAK_FILE when it exits.
const { writeFileSync } = require("node:fs");

process.on("exit", () => {
  if (process.env.TEND_BENCH_PEAK_FILE) writeFileSync(process.env.TEND_BENCH_PEAK_FILE, String(process.resourceUsage().maxRSS));
});
