import { mkdtemp, writeFile, readFile } from "node:fs/promises";
import { tmpdir, hostname } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ScopeLock } from "./lock.js";

describe("ScopeLock", () => {
  it("lets one holder in and names it to the next", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-lock-"));
    const first = new ScopeLock(join(dir, "lock"));
    await first.acquire();
    const second = new ScopeLock(join(dir, "lock"));
    await expect(second.acquire()).rejects.toThrow(new RegExp(`another tend apply holds the lock .* \\(pid ${process.pid} on `));
    await first.release();
    await second.acquire();
    await second.release();
  });

  it("waits up to --lock-timeout for the holder to finish", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-lock-"));
    const first = new ScopeLock(join(dir, "lock"));
    await first.acquire();
    setTimeout(() => void first.release(), 150);
    const second = new ScopeLock(join(dir, "lock"));
    await second.acquire(2_000);
    expect((await second.holder())?.pid).toBe(process.pid);
    await second.release();
  });

  it("takes over the lock of a holder that was killed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-lock-"));
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    const bootId = (await readFile("/proc/sys/kernel/random/boot_id", "utf8")).trim();
    await writeFile(join(dir, "lock"), JSON.stringify({ pid: child.pid, bootId, host: hostname(), since: "then", command: "apply" }));
    const lock = new ScopeLock(join(dir, "lock"));
    await expect(lock.acquire()).rejects.toThrow(`pid ${child.pid}`);
    child.kill("SIGKILL");
    await new Promise((r) => child.on("exit", r));
    const started = Date.now();
    await lock.acquire();
    expect(Date.now() - started).toBeLessThan(1_000);
    await lock.release();
  });

  it("treats a lock from another boot as stale", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-lock-"));
    await writeFile(join(dir, "lock"), JSON.stringify({ pid: process.pid, bootId: "another-boot", host: hostname(), since: "then", command: "apply" }));
    const lock = new ScopeLock(join(dir, "lock"));
    await lock.acquire();
    await lock.release();
  });
});
