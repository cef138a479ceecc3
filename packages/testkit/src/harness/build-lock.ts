import { readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export interface BuildLockOptions {
  /** Default: tend-it-images.lock in the temp folder, shared by every run on the machine. */
  path?: string;
  /** Give up waiting for another holder after this long. Default 20 min. */
  timeoutMs?: number;
}

/**
 * Runs `build` while holding a machine-wide lock, so that test runs started side by side (every
 * init's suite shares the engine) do not debootstrap and build the same images twice. A lock whose
 * holder died is taken over.
 */
export async function withBuildLock<T>(
  build: () => Promise<T>,
  log: (line: string) => void,
  options: BuildLockOptions = {},
): Promise<T> {
  const lockFile = options.path ?? join(tmpdir(), "tend-it-images.lock");
  const timeoutMs = options.timeoutMs ?? 20 * 60_000;
  const deadline = Date.now() + timeoutMs;
  let announced = false;
  for (;;) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const content = readQuietly(lockFile);
    const holder = Number(content);
    if (!Number.isInteger(holder) || holder <= 0) {
      // Created but not written yet, or garbage left by a crash: only the latter is old.
      if (ageMs(lockFile) > 10_000) removeQuietly(lockFile);
      await sleep(200);
      continue;
    }
    if (!isAlive(holder)) {
      if (readQuietly(lockFile) === content) removeQuietly(lockFile);
      continue;
    }
    if (Date.now() > deadline) throw new Error(`process ${holder} has held ${lockFile} for over ${timeoutMs / 1000} s`);
    if (!announced) log(`waiting for process ${holder}, which is building images (${lockFile})`);
    announced = true;
    await sleep(1000);
  }
  try {
    return await build();
  } finally {
    if (readQuietly(lockFile) === String(process.pid)) removeQuietly(lockFile);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function readQuietly(path: string): string {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return "";
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
