import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { TendError } from "../errors/tend-error.js";
import { ScopeLock } from "./scope-lock.js";

const execFileAsync = promisify(execFile);

const CORE = new URL("../../dist/index.js", import.meta.url).href;

/** A node process that takes the lock (from the built package) and holds it until killed. */
function holder(path: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", `import { ScopeLock } from ${JSON.stringify(CORE)}; await new ScopeLock(${JSON.stringify(path)}).acquire(); console.log("held"); setInterval(() => {}, 1000);`], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.once("data", () => resolve(child));
    child.once("exit", (code) => reject(new Error(`holder exited ${code}`)));
  });
}

/**
 * A node process that takes the lock at `path` (from the built package), starts `command` with
 * the ProcessRunner (its own process group, as every command tend runs), says so once the command
 * runs, and is held until killed. Resolves with it once it said so.
 */
async function holderRunning(path: string, tool: "flock" | "perl", command: string): Promise<ChildProcess> {
  const script = `import { ScopeLock, ProcessRunner } from ${JSON.stringify(CORE)}; await new ScopeLock(${JSON.stringify(path)}, { tool: ${JSON.stringify(tool)} }).acquire(); ` +
    `void new ProcessRunner().run({ argv: ["/bin/sh", "-c", ${JSON.stringify(command)}] }); setTimeout(() => console.log("running"), 200); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve) => child.stdout!.once("data", resolve));
  return child;
}

async function killed(child: ChildProcess): Promise<void> {
  child.kill("SIGKILL");
  await new Promise((r) => child.once("exit", r));
}

describe.each(["flock", "perl"] as const)("ScopeLock (%s)", (tool) => {
  it("lets one holder in and names it to the next", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-lock-"));
    const first = new ScopeLock(join(dir, "lock"), { tool });
    await first.acquire();
    const second = new ScopeLock(join(dir, "lock"), { tool });
    await expect(second.acquire()).rejects.toThrow(new RegExp(`another tend apply holds the lock .*lock \\(pid ${process.pid} on .*, since .*: tend `));
    first.release();
    await second.acquire();
    second.release();
  });

  it("waits up to --lock-timeout for the holder to finish", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-lock-"));
    const first = new ScopeLock(join(dir, "lock"), { tool });
    await first.acquire();
    setTimeout(() => first.release(), 300);
    const second = new ScopeLock(join(dir, "lock"), { tool });
    const started = Date.now();
    await second.acquire(5_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(second.holder()?.pid).toBe(process.pid);
    second.release();
  });

  it("names the commands its holder runs, and after a killed holder waits for the ones it left running, which run to their end though no one reads their output", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-lock-"));
    const path = join(dir, "lock");
    const done = join(dir, "done");
    // A holder killed while the command it started runs.
    const child = await holderRunning(path, tool, `sleep 1; echo its output, after tend is gone; echo done > ${done}`);
    const named = JSON.parse(await readFile(path, "utf8")) as { pid: number; commands?: { group: number; start?: string }[] };
    expect(named.pid).toBe(child.pid);
    expect(named.commands).toEqual([{ group: expect.any(Number), start: expect.stringMatching(/^\d+$/) }]);
    await killed(child);
    const lock = new ScopeLock(path, { tool });
    await lock.acquire();
    // Taken only once the command the killed holder left running had finished.
    expect(await readFile(done, "utf8")).toBe("done\n");
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ pid: process.pid });
    expect(JSON.parse(await readFile(path, "utf8")).commands).toBeUndefined();
    lock.release();
  });

  it("after a killed holder, waits for the command it left running, not for a daemon that command left in its group", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-lock-"));
    const path = join(dir, "lock");
    const daemon = join(dir, "daemon");
    // The command starts a daemon that stays in its process group (as supervise-daemon does in rc-service's), then ends a second later.
    await killed(await holderRunning(path, tool, `(exec sleep 60 </dev/null >/dev/null 2>&1 & echo $! > ${daemon}); sleep 1`));
    const lock = new ScopeLock(path, { tool });
    const started = Date.now();
    await lock.acquire();
    const waited = Date.now() - started;
    lock.release();
    const pid = Number(await readFile(daemon, "utf8"));
    const alive = (() => { try { process.kill(pid, 0); return true; } catch { return false; } })();
    process.kill(pid, "SIGKILL");
    expect(alive).toBe(true);
    expect(waited).toBeGreaterThan(200); // the rest of the command's own second
    expect(waited).toBeLessThan(5_000); // not the daemon's minute
  });

  it("never lets a command run that a holder killed before naming it could leave behind", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-lock-"));
    const path = join(dir, "lock");
    const done = join(dir, "done");
    await writeFile(path, "");
    // The holder is SIGKILLed at its second write of the lock file: the one that would name the
    // command it has just started. Started, the command would outlive it unnamed, and the next
    // holder would not know to wait.
    const script = `import { ScopeLock, ProcessRunner } from ${JSON.stringify(CORE)}; await new ScopeLock(${JSON.stringify(path)}, { tool: ${JSON.stringify(tool)} }).acquire(); ` +
      `void new ProcessRunner().run({ argv: ["/bin/sh", "-c", "sleep 1; echo done > ${done}"] }); setInterval(() => {}, 1000);`;
    const strace = ["-qq", "-e", "trace=pwrite64,write", "-e", "inject=pwrite64:signal=SIGKILL:when=2", "-P", path, "-o", "/dev/null"];
    const child = spawn("strace", [...strace, process.execPath, "--input-type=module", "-e", script], { stdio: ["ignore", "ignore", "inherit"] });
    await new Promise((resolve) => child.once("exit", resolve));
    const lock = new ScopeLock(path, { tool });
    await lock.acquire();
    // Whatever the killed holder started must be over once the lock is taken: it never ran, or it was waited for.
    const seenAtAcquire = await readFile(done, "utf8").catch(() => "absent");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await readFile(done, "utf8").catch(() => "absent")).toBe(seenAtAcquire);
    lock.release();
  });

  it("does not wait for a group its named command left long ago: a later process that was given the pid is another", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-lock-"));
    const path = join(dir, "lock");
    // A live group led by a process that started at another time than the one named: a later process given the pid.
    const other = spawn("sleep", ["5"], { detached: true, stdio: "ignore" });
    await writeFile(path, `${JSON.stringify({ pid: 1, host: "h", since: "s", command: "apply", commands: [{ group: other.pid, start: "1" }] })}\n`);
    const lock = new ScopeLock(path, { tool });
    const started = Date.now();
    await lock.acquire();
    expect(Date.now() - started).toBeLessThan(2_000);
    lock.release();
    other.kill();
  });

  it("is free the moment a killed holder is gone: the kernel releases it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-lock-"));
    const path = join(dir, "lock");
    const child = await holder(path);
    const lock = new ScopeLock(path, { tool });
    await expect(lock.acquire()).rejects.toThrow(`pid ${child.pid}`);
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    const started = Date.now();
    await lock.acquire();
    expect(Date.now() - started).toBeLessThan(1_000);
    lock.release();
  });
});

describe("ScopeLock under contention", () => {
  /**
   * Contenders pause for a random while at every step of acquiring (opened, locked, verified,
   * written), and some are SIGKILLed at random moments, holding or not. Each holder marks its
   * critical section with an O_EXCL file naming itself: finding one that names a live process
   * is two holders at once.
   */
  it("never has two holders under any interleaving, and a dead holder never blocks", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-lock-race-"));
    const script = `
      import { ScopeLock } from ${JSON.stringify(CORE)};
      import { openSync, closeSync, readFileSync, unlinkSync, appendFileSync, writeSync } from "node:fs";
      const dir = ${JSON.stringify(dir)};
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
      for (let round = 0; round < 6; round += 1) {
        const lock = new ScopeLock(dir + "/lock", { pause: () => sleep(Math.random() * 15) });
        await lock.acquire(30000);
        let fd;
        try { fd = openSync(dir + "/occupied", "wx"); } catch {
          const other = Number(readFileSync(dir + "/occupied", "utf8"));
          if (alive(other)) appendFileSync(dir + "/violations", process.pid + " entered while " + other + " held\\n");
          unlinkSync(dir + "/occupied");
          fd = openSync(dir + "/occupied", "wx");
        }
        writeSync(fd, String(process.pid)); closeSync(fd);
        appendFileSync(dir + "/entries", process.pid + "\\n");
        await sleep(Math.random() * 10);
        unlinkSync(dir + "/occupied");
        lock.release();
      }
    `;
    const run = () => spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "ignore", "inherit"] });
    const children = Array.from({ length: 8 }, run);
    const exits = children.map((child) => new Promise<number | null>((r) => child.once("exit", (code) => r(code))));
    // Kill three of them at random moments; the rest must still all get through.
    for (const victim of children.slice(0, 3)) setTimeout(() => victim.kill("SIGKILL"), 50 + Math.random() * 400);
    const codes = await Promise.all(exits);
    expect(codes.slice(3)).toEqual([0, 0, 0, 0, 0]);
    const violations = await readFile(join(dir, "violations"), "utf8").catch(() => "");
    expect(violations).toBe("");
    const entries = (await readFile(join(dir, "entries"), "utf8")).split("\n").filter(Boolean);
    expect(entries.length).toBeGreaterThanOrEqual(30);
  }, 60_000);

  it("refuses a lock path that is a symlink", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-lock-"));
    await writeFile(join(dir, "elsewhere"), "precious");
    await symlink(join(dir, "elsewhere"), join(dir, "lock"));
    await expect(new ScopeLock(join(dir, "lock")).acquire()).rejects.toThrow(/lock/);
    expect(await readFile(join(dir, "elsewhere"), "utf8")).toBe("precious");
  });

  it.each([
    ["a folder", "folder", (path: string) => mkdir(path)],
    ["a device, FIFO or socket", "FIFO", (path: string) => execFileAsync("mkfifo", [path])],
    ...(process.getuid?.() === 0 ? [["a device, FIFO or socket", "device (/dev/null's numbers)", (path: string) => execFileAsync("mknod", [path, "c", "1", "3"])] as const] : []),
  ] as const)("refuses a lock path that is %s (a %s), never opening it as its lock", async (what, _kind, make) => {
    const dir = await mkdtemp(join(tmpdir(), "tend-lock-"));
    await make(join(dir, "lock"));
    const error = await new ScopeLock(join(dir, "lock")).acquire().catch((e: unknown) => e as TendError);
    expect(`${error.code} ${error.message}`).toBe(`TEND_UNSAFE_PATH refusing to open the lock ${join(dir, "lock")}: it is ${what}, not a file`);
    expect(error.hint).toBe("Move it away: tend makes the lock file itself");
  });
});

describe.runIf(process.getuid?.() === 0)("ScopeLock for a user scope, as root and as the user", () => {
  it("is one lock: root acting for a user and the user herself exclude each other, and root never opens her path", async () => {
    const { chown } = await import("node:fs/promises");
    const home = await mkdtemp(join(tmpdir(), "tend-lock-home-"));
    await chown(home, 65534, 65534);
    const path = join(home, ".local/state/tend/lock");
    const asRoot = new ScopeLock(path, { asUser: { uid: 65534, gid: 65534 } });
    await asRoot.acquire();
    const { lstat } = await import("node:fs/promises");
    expect((await lstat(path)).uid).toBe(65534);
    // The user's own tend (a process running as her) cannot take it while root holds it for her.
    const script = `import { ScopeLock } from ${JSON.stringify(CORE)}; try { await new ScopeLock(${JSON.stringify(path)}).acquire(); console.log("got it"); } catch (e) { console.log(e.code, e.message); }`;
    const asHer = spawn(process.execPath, ["--input-type=module", "-e", script], { uid: 65534, gid: 65534, stdio: ["ignore", "pipe", "inherit"] });
    let said = "";
    asHer.stdout!.on("data", (chunk: Buffer) => (said += chunk.toString()));
    await new Promise((r) => asHer.on("exit", r));
    expect(said).toMatch(new RegExp(`^TEND_LOCKED another tend apply holds the lock .* \\(pid ${process.pid} on `));
    // And root for her waits for her the same way.
    const second = new ScopeLock(path, { asUser: { uid: 65534, gid: 65534 } });
    await expect(second.acquire()).rejects.toThrow(`pid ${process.pid}`);
    asRoot.release();
    await second.acquire(5_000);
    second.release();
  });

  it.each([
    ["a symlink tend did not make, and tend never goes through one", (path: string) => symlink("/etc/passwd", path)],
    ["a folder, device, FIFO or socket, not a file", (path: string) => execFileAsync("mkfifo", [path])],
  ] as const)("refuses her lock path when it is %s (a FIFO would hang root's apply for her)", async (why, make) => {
    const { chown } = await import("node:fs/promises");
    const home = await mkdtemp(join(tmpdir(), "tend-lock-home-"));
    await chown(home, 65534, 65534);
    await mkdir(join(home, "state"));
    await chown(join(home, "state"), 65534, 65534);
    const path = join(home, "state/lock");
    await make(path);
    const error = await new ScopeLock(path, { asUser: { uid: 65534, gid: 65534 } }).acquire().catch((e: unknown) => e as TendError);
    expect(`${error.code} ${error.message}`).toBe(`TEND_UNSAFE_PATH refusing to open the lock ${path}: it is ${why}`);
  }, 10_000);
});
