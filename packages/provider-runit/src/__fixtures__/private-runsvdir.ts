import { spawn, type ChildProcess } from "node:child_process";

/**
 * A runsvdir over `scan` for a test against real runsv, in a process group of its own, as the
 * given user (else as the test).
 */
export function startRunsvdir(scan: string, as?: { uid: number; gid: number }): ChildProcess {
  return spawn("runsvdir", [scan], { detached: true, stdio: "ignore", ...as });
}

/** Ends it: HUP (runsvdir sends every runsv TERM, then exits), then KILL to what is left of its group. */
export async function stopRunsvdir(runsvdir: ChildProcess | undefined): Promise<void> {
  if (!runsvdir?.pid) return;
  process.kill(runsvdir.pid, "SIGHUP");
  await new Promise((resolve) => setTimeout(resolve, 1500));
  try {
    process.kill(-runsvdir.pid, "SIGKILL");
  } catch {
    // all gone
  }
}
