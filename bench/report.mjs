// The machine a benchmark ran on, and bench/RESULTS.md.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg, release, totalmem } from "node:os";

export function machine() {
  const cpu = /model name\s*:\s*(.+)/.exec(safeRead("/proc/cpuinfo"))?.[1] ?? cpus()[0]?.model ?? "unknown";
  let kernel = release();
  try {
    kernel = execFileSync("uname", ["-sr"], { encoding: "utf8" }).trim();
  } catch {
    // uname -r is enough
  }
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    cpu,
    cores: cpus().length,
    memoryGiB: (totalmem() / 2 ** 30).toFixed(1),
    kernel,
    node: process.version,
    load: loadavg().map((l) => l.toFixed(1)).join(" "),
  };
}

export function resultsMarkdown(rows, info, short) {
  const lines = [
    "# Benchmark results",
    "",
    `Measured ${info.date} with \`node bench/run.mjs${short ? " --short" : ""} --write\` on ${info.cpu}, ${info.cores} cores, ${info.memoryGiB} GiB,`,
    `${info.kernel}, node ${info.node}; load average at the end ${info.load}.`,
    "",
    "Each floor is the least any tool must do with the init's own commands (bench/floors/); a no-op",
    "plan's floor is `node -e 0` plus the init's minimal queries, an apply changing one service's is",
    "`node -e 0` plus the init's commands for the change (tend's change is an edit of the spec to a",
    "text it has not validated before, as an admin's would be). Times are the fastest of several",
    "runs; a fresh apply, tend's and the floor's, is the faster of two, each on a clean host (one",
    "with --short): runit's swings by up to 5 s, as runsvdir looks at its folder every 5 s. CI runs",
    "`node bench/run.mjs --short --check`, which fails when a ratio grows past twice its value in",
    "bench/baseline.json, never on an absolute time. A load average above the core count means other",
    "work shared the machine: ratios of small times are then noisy. Where a no-op plan's time goes:",
    "bench/PROFILE.md (`node bench/profile.mjs`).",
    "",
    "The fleet rows (`--fleet`) run every host as a container on this same machine: a target's own",
    "work (sshd, its shell, the init's commands, `docker exec` carrying the connection) shares the",
    "cores with tend, so each no-op plan also gives tend's CPU time (node and the ssh clients it",
    "waits for) and the whole machine's. When the machine's CPU time divided by its cores is close",
    "to the wall time, the run was bound by the simulated hosts, which separate machines would not be.",
    "",
    "| benchmark | time | ratio | against |",
    "| --- | ---: | ---: | --- |",
  ];
  for (const row of rows) {
    const value = row.count !== undefined ? `${row.count}` : `${row.ms.toFixed(0)} ms`;
    const ratio = row.ratio !== undefined ? `${row.ratio.toFixed(2)}x` : "";
    const against = row.of ?? (row.limitMs !== undefined ? `goal <= ${row.limitMs / 1000} s` : row.goal !== undefined ? `goal <= ${row.goal}` : "");
    const goal = row.goal === undefined || !row.of ? "" : row.ratio !== undefined ? ` (goal <= ${row.goal}x)` : ` (goal <= ${row.goal})`;
    lines.push(`| ${row.name} | ${value} | ${ratio} | ${against}${goal} |`);
  }
  return `${lines.join("\n")}\n`;
}

function safeRead(path) {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}
