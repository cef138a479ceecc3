// Shared by the benchmarks: timing whole commands, medians, fresh folders, spec generators.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const CLI = new URL("../packages/cli/dist/bin.js", import.meta.url).pathname;

/**
 * tend's content cache for every run of the benchmark: a folder of its own, empty when it starts,
 * so no row depends on what the user's cache holds (a spec validated before, by an earlier run or
 * by hand, made `validate 10,000 services` a read of the cache: 177 ms, not ~1.2 s). The runs
 * share it, as an admin's commands one after another would.
 */
const CACHE = mkdtempSync(join(tmpdir(), "tend-bench-cache-"));
process.env.TEND_CACHE_DIR = CACHE;
process.on("exit", () => rmSync(CACHE, { recursive: true, force: true }));

/** Milliseconds one run of `argv` takes (it must exit 0, or `okCodes`). */
export function timeRun(argv, { cwd, okCodes = [0] } = {}) {
  const start = process.hrtime.bigint();
  const result = spawnSync(argv[0], argv.slice(1), { cwd, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (!okCodes.includes(result.status ?? -1)) throw new Error(`${argv.join(" ")} exited ${result.status}: ${result.stderr}`);
  return ms;
}

const PEAK = new URL("./peak-memory.cjs", import.meta.url).pathname;

/**
 * One run of tend (`args` after the CLI) with its time and its peak resident memory in MB (node's
 * own maxRSS, written at exit by bench/peak-memory.cjs); it must exit 0.
 */
export function runWithPeak(args, { cwd } = {}) {
  const file = join(freshDir("tend-bench-peak-"), "kb");
  const argv = [process.execPath, "-r", PEAK, CLI, ...args];
  const start = process.hrtime.bigint();
  const result = spawnSync(argv[0], argv.slice(1), { cwd, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8", env: { ...process.env, TEND_BENCH_PEAK_FILE: file } });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`tend ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return { ms, peakMb: Number(readFileSync(file, "utf8")) / 1024 };
}

export function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** A fresh temp folder. Removed only at the end: ext4 spends a while on a tree just deleted. */
const made = [];
export function freshDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
export function cleanUp() {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** An image root with the folders the init's packages leave (runit's runsvdir, dinit's boot service, cron). */
export function imageRoot(prefix = "tend-bench-root-") {
  const root = freshDir(prefix);
  for (const dir of ["etc/runit/runsvdir/default", "etc/dinit.d/boot.d", "etc/s6/sv", "etc/systemd/system", "etc/cron.d", "usr/sbin"]) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, "etc/dinit.d/boot"), "type = internal\nwaits-for.d = /etc/dinit.d/boot.d\n");
  writeFileSync(join(root, "usr/sbin/cron"), "#!/bin/sh\n", { mode: 0o755 });
  // The accounts an image has (a LaunchDaemon is root:wheel, as on macOS): tend looks owners up in the root.
  writeFileSync(join(root, "etc/passwd"), "root:x:0:0:root:/root:/bin/sh\n");
  writeFileSync(join(root, "etc/group"), "root:x:0:\nwheel:x:0:root\n");
  return root;
}

/** A tend.yaml of `n` services (every tenth runs after the one before it) in a fresh folder. */
export function serviceSpec(n) {
  const dir = freshDir("tend-bench-spec-");
  const docs = Array.from({ length: n }, (_, i) => `tend: v1alpha1\ntype: Service\nname: svc${i}\nexec: /opt/svc/bin/run --id ${i}\nrestart: always\n${i % 10 === 1 ? `after: [svc${i - 1}]\n` : ""}`);
  writeFileSync(join(dir, "tend.yaml"), docs.join("---\n"));
  return join(dir, "tend.yaml");
}

/** How many processes named `name` a command starts (strace, when installed). */
export function countExecs(argv, name, cwd) {
  const log = join(freshDir("tend-bench-trace-"), "trace");
  execFileSync("strace", ["-f", "-qq", "-e", "trace=execve", "-o", log, ...argv], { cwd, stdio: "ignore" });
  const text = execFileSync("cat", [log], { encoding: "utf8" });
  return text.split("\n").filter((line) => line.includes(`execve(`) && line.includes(`/${name}"`) && line.includes("= 0")).length;
}
