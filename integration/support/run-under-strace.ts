import { spawn } from "node:child_process";

/**
 * The system calls that change something, or start a command, as tend's main thread makes them.
 * Without `-f`, strace follows only that thread: tend's file work is synchronous there, so the
 * k-th call is the same step in every run (threads libuv starts, `clone3`, are left out).
 */
export const MUTATING_CALLS = [
  "write", "pwrite64", "writev", "pwritev", "rename", "renameat", "renameat2", "fsync", "fdatasync",
  "unlink", "unlinkat", "rmdir", "mkdir", "mkdirat", "symlink", "symlinkat", "link", "linkat",
  "fchmod", "fchmodat", "chmod", "fchown", "fchownat", "lchown", "ftruncate", "clone", "vfork",
].join(",");

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runCommand(argv: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  return new Promise((resolve) => {
    // The spec cache off: whether an earlier run left it warm must not change which system calls
    // an apply makes (the kill points are counted from a clean run and replayed).
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env: { ...env, NO_COLOR: "1", TEND_CACHE_DIR: "" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** A point to kill at: the `nth` call of `call` (strace counts each system call on its own). */
export interface KillPoint {
  call: string;
  nth: number;
}

/** Every mutating call a clean run makes, as kill points (read from strace's log of the run). */
export async function killPoints(argv: string[], cwd: string, log: string): Promise<{ points: KillPoint[]; run: Run }> {
  const run = await runCommand(["strace", "-qq", "-o", log, "-e", `trace=${MUTATING_CALLS}`, ...argv], cwd);
  const { readFile } = await import("node:fs/promises");
  const seen = new Map<string, number>();
  const points: KillPoint[] = [];
  for (const line of (await readFile(log, "utf8")).split("\n")) {
    const call = /^([a-z0-9_]+)\(/.exec(line)?.[1];
    if (!call) continue;
    const nth = (seen.get(call) ?? 0) + 1;
    seen.set(call, nth);
    points.push({ call, nth });
  }
  return { points, run };
}

/** Runs `argv` with SIGKILL injected at one kill point. */
export function runKilledAt(argv: string[], cwd: string, point: KillPoint): Promise<Run> {
  return runCommand(["strace", "-qq", "-o", "/dev/null", "-e", `trace=${point.call}`, "-e", `inject=${point.call}:signal=KILL:when=${point.nth}`, ...argv], cwd);
}

/** One synced append to tend's state journal, as a clean run makes it. */
export interface JournalAppend {
  /** Which `fsync` of the run syncs it (a kill point: the append is written, not yet synced). */
  fsync: KillPoint;
  /** How many bytes it appended. */
  bytes: number;
}

/**
 * The appends a clean run makes to its state journal, each with the `fsync` that syncs it: killed
 * there, the append is in the page cache but not on disk, where a power cut would find it.
 */
export async function journalAppends(argv: string[], cwd: string, log: string): Promise<{ appends: JournalAppend[]; run: Run }> {
  const run = await runCommand(["strace", "-qq", "-y", "-o", log, "-e", "trace=write,fsync", ...argv], cwd);
  const { readFile } = await import("node:fs/promises");
  const appends: JournalAppend[] = [];
  let fsyncs = 0;
  let written = 0;
  for (const line of (await readFile(log, "utf8")).split("\n")) {
    const journal = line.includes("/state.journal>");
    if (line.startsWith("write(") && journal) written += Number(/= (\d+)$/.exec(line)?.[1] ?? 0);
    if (!line.startsWith("fsync(")) continue;
    fsyncs += 1;
    if (journal && written > 0) appends.push({ fsync: { call: "fsync", nth: fsyncs }, bytes: written });
    if (journal) written = 0;
  }
  return { appends, run };
}
