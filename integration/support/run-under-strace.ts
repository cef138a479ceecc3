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

/**
 * A point to kill at: the `nth` call of `call` (strace counts each system call on its own), or
 * with `path`, the nth that touches that path (`strace -P`), by name or through a descriptor.
 */
export interface KillPoint {
  call: string;
  nth: number;
  path?: string;
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
  const only = point.path === undefined ? [] : ["-P", point.path];
  return runCommand(["strace", "-qq", "-o", "/dev/null", ...only, "-e", `trace=${point.call}`, "-e", `inject=${point.call}:signal=KILL:when=${point.nth}`, ...argv], cwd);
}

/** One synced append to tend's state journal, as a clean run makes it. */
export interface JournalAppend {
  /** Its `write` (a kill point: not yet written; before the first, the journal is made, empty). */
  write: KillPoint;
  /** The `fsync` that syncs it (a kill point: the append is written, not yet synced). */
  fsync: KillPoint;
  /** How many bytes it appended. */
  bytes: number;
}

/**
 * The appends a clean run makes to its state journal (`journal`, the path on this machine), each
 * with the `write` that makes it and the `fsync` that syncs it: killed there, the append is in
 * the page cache but not on disk, where a power cut would find it.
 */
export async function journalAppends(argv: string[], cwd: string, log: string, journal: string): Promise<{ appends: JournalAppend[]; run: Run }> {
  const run = await runCommand(["strace", "-qq", "-o", log, "-P", journal, "-e", "trace=write,fsync", ...argv], cwd);
  const { readFile } = await import("node:fs/promises");
  const appends: JournalAppend[] = [];
  let [writes, fsyncs, bytes] = [0, 0, 0];
  for (const line of (await readFile(log, "utf8")).split("\n")) {
    if (line.startsWith("write(")) {
      writes += 1;
      bytes += Number(/= (\d+)$/.exec(line)?.[1] ?? 0);
    } else if (line.startsWith("fsync(")) {
      fsyncs += 1;
      // Each append is one write, then its sync.
      appends.push({ write: { call: "write", nth: writes, path: journal }, fsync: { call: "fsync", nth: fsyncs, path: journal }, bytes });
      bytes = 0;
    }
  }
  return { appends, run };
}
