import { link, mkdir, open, readFile, rename, unlink } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { hostname } from "node:os";
import { errors } from "../errors/catalogue.js";

interface Holder {
  pid: number;
  bootId: string;
  host: string;
  since: string;
  command: string;
}

function bootId(): string {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return "unknown";
  }
}

function alive(holder: Holder): boolean {
  if (holder.bootId !== bootId() || holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * One apply at a time per scope. The lock file names its holder (pid, boot id, host, start time);
 * a holder that is dead or from another boot is taken over, so a killed apply never leaves the
 * lock stuck. Taking it is atomic: link(2) of a complete temp file, which fails if it exists.
 */
export class ScopeLock {
  private held = false;
  constructor(readonly path: string) {}

  async acquire(timeoutMs = 0, sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o755 });
    const me: Holder = { pid: process.pid, bootId: bootId(), host: hostname(), since: new Date().toISOString(), command: process.argv.slice(2).join(" ") };
    const temp = `${this.path}.${process.pid}`;
    const handle = await open(temp, "w", 0o644);
    await handle.writeFile(JSON.stringify(me));
    await handle.sync();
    await handle.close();
    const deadline = Date.now() + timeoutMs;
    try {
      for (;;) {
        try {
          await link(temp, this.path);
          this.held = true;
          return;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        }
        const holder = await this.holder();
        if (holder && !alive(holder)) {
          // Move the stale lock aside; only one contender's rename succeeds.
          await rename(this.path, `${this.path}.stale-${process.pid}`).then(
            () => unlink(`${this.path}.stale-${process.pid}`),
            () => undefined,
          );
          continue;
        }
        if (Date.now() >= deadline) {
          const who = holder ? `pid ${holder.pid} on ${holder.host}, since ${holder.since}: tend ${holder.command}` : "holder unknown";
          throw errors.locked(this.path, who);
        }
        await sleep(Math.min(250, Math.max(10, deadline - Date.now())));
      }
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  }

  async holder(): Promise<Holder | undefined> {
    try {
      return JSON.parse(await readFile(this.path, "utf8")) as Holder;
    } catch {
      return undefined;
    }
  }

  async release(): Promise<void> {
    if (!this.held) return;
    this.held = false;
    const holder = await this.holder();
    if (holder?.pid === process.pid) await unlink(this.path).catch(() => undefined);
  }
}
