import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { withBuildLock } from "./build-lock.js";

const made: string[] = [];
afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function lockPath(): string {
  const dir = mkdtempSync(join(tmpdir(), "tend-lock-"));
  made.push(dir);
  return join(dir, "images.lock");
}

const quiet = () => {};

describe("withBuildLock", () => {
  it("lets one build at a time in", async () => {
    const path = lockPath();
    const events: string[] = [];
    const build = (name: string) => async () => {
      events.push(`${name} in`);
      await sleep(50);
      events.push(`${name} out`);
    };
    await Promise.all([withBuildLock(build("a"), quiet, { path }), withBuildLock(build("b"), quiet, { path })]);
    expect(events).toEqual(["a in", "a out", "b in", "b out"]);
  });

  it("takes over a lock whose holder died", async () => {
    const path = lockPath();
    const dead = spawnSync("true").pid;
    writeFileSync(path, String(dead));
    expect(await withBuildLock(async () => "built", quiet, { path, timeoutMs: 100 })).toBe("built");
  });

  it("waits for a live holder and gives up naming it", async () => {
    const path = lockPath();
    writeFileSync(path, String(process.ppid));
    const lines: string[] = [];
    await expect(withBuildLock(async () => "built", (line) => lines.push(line), { path, timeoutMs: 100 })).rejects.toThrow(
      `process ${process.ppid} has held ${path} for over 0.1 s`,
    );
    expect(lines).toEqual([`waiting for process ${process.ppid}, which is building images (${path})`]);
  });

  it("releases the lock when the build fails", async () => {
    const path = lockPath();
    await expect(withBuildLock(async () => Promise.reject(new Error("apt failed")), quiet, { path })).rejects.toThrow("apt failed");
    expect(existsSync(path)).toBe(false);
  });
});
