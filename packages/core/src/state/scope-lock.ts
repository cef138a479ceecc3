import type { ChildProcess } from "node:child_process";
import { closeSync, constants, existsSync, fstatSync, ftruncateSync, lstatSync, openSync, readFileSync, writeSync, type Stats } from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { errors } from "../errors/catalogue.js";
import type { TendError } from "../errors/tend-error.js";
import { ensureRealDir } from "../files/write-batch.js";
import { fsError } from "../files/fs-error.js";
import { childProcesses } from "../runner/child-process.js";
import { runningCommands, stillRunning, watchCommands, type RunningCommand } from "../runner/command-groups.js";

/** Who holds a scope's lock, as written into the lock file by the holder. */
export interface LockHolder {
  pid: number;
  host: string;
  since: string;
  command: string;
  /** The commands it is running now, each a process group (see command-groups.ts). */
  commands?: RunningCommand[];
}

/**
 * How long an apply waits for the commands a killed one left running: the longest deadline tend
 * gives a command (a daemon-reload's 120 s), and a little more.
 */
const LEFT_COMMANDS_WAIT_MS = 130_000;

/** Points a test can pause at, to try every interleaving of contenders. */
export type LockStep = "opened" | "locked" | "verified" | "written";

/**
 * One apply at a time per scope, held with the kernel's own lock: flock(2) on the lock file, taken
 * by a short-lived `flock` (or `perl`) child on a descriptor tend keeps open. The lock belongs to
 * tend's open file, so it lasts until tend closes it or dies; a killed holder never leaves it
 * stuck and there is no stale lock to take over, so no takeover can race. The holder writes its
 * pid, host, start time and command into the file, which is how a contender names it.
 */
export class ScopeLock {
  private fd: number | undefined;

  constructor(
    /** Real path of the lock file. */
    readonly path: string,
    private readonly options: {
      /** Called at each step of acquiring: tests pause contenders here to try every interleaving. */
      pause?: (step: LockStep) => Promise<void>;
      /** The program that takes the kernel lock (default: util-linux's flock when installed, else perl). */
      tool?: "flock" | "perl";
      /**
       * Take the lock as this user (root acting for a user scope, whose lock lives in the user's
       * own folder): a child running as the user opens, locks and holds the file until tend closes
       * its input or dies, so root never opens a path the user controls.
       */
      asUser?: { uid: number; gid: number };
    } = {},
  ) {}

  private holderChild: ChildProcess | undefined;

  private pause(step: LockStep): Promise<void> {
    return this.options.pause?.(step) ?? Promise.resolve();
  }

  /** Takes the lock, waiting up to `timeoutMs` for the holder; TEND_LOCKED naming it otherwise. */
  async acquire(timeoutMs = 0): Promise<void> {
    if (this.options.asUser) return this.acquireAs(this.options.asUser, timeoutMs);
    const deadline = performance.now() + timeoutMs; // monotonic: a wall-clock step changes nothing
    for (;;) {
      const fd = this.open();
      await this.pause("opened");
      const waitMs = Math.max(0, deadline - performance.now());
      let locked: boolean;
      try {
        locked = await flockChild(fd, waitMs, this.options.tool);
      } catch (error) {
        closeSync(fd);
        throw error;
      }
      if (!locked) {
        closeSync(fd);
        const holder = this.holder();
        const who = holder ? `pid ${holder.pid} on ${holder.host}, since ${holder.since}: tend ${holder.command}` : "holder unknown";
        throw errors.locked(this.path, who);
      }
      await this.pause("locked");
      // The lock is on the file we opened; if the path names another file now (deleted and made
      // anew), another apply may lock that one: start over on what the path names.
      if (!this.stillNamed(fd)) {
        closeSync(fd);
        continue;
      }
      await this.pause("verified");
      this.fd = fd;
      await waitForLeftCommands(fd);
      this.writeHolder(fd);
      watchCommands((commands) => {
        try {
          this.writeHolder(fd, commands, false);
        } catch {
          // the name is advice to the next apply; the lock itself holds regardless
        }
      });
      await this.pause("written");
      return;
    }
  }

  /** The holder the lock file names, if any. */
  holder(): LockHolder | undefined {
    try {
      const parsed = JSON.parse(readFileSync(this.path, "utf8")) as LockHolder;
      return typeof parsed.pid === "number" ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The lock taken by a child running as the user: `flock` on the user's own lock file runs a
   * shell that writes the holder's name, says so, and waits on its input; closing that input (or
   * tend dying) ends it and unlocks. A contender as that user gets the same file.
   */
  private async acquireAs(user: { uid: number; gid: number }, timeoutMs: number): Promise<void> {
    const holder = JSON.stringify(this.me());
    const wait = timeoutMs > 0 ? `-w ${(timeoutMs / 1000).toFixed(3)}` : "-n";
    // flock opens whatever is there: a link is followed, and a FIFO waited on for ever.
    const script =
      `umask 077; mkdir -p -- "$(dirname -- "$1")" || exit 2; [ ! -L "$1" ] || exit ${AS_USER_LINK}; { [ -f "$1" ] || [ ! -e "$1" ]; } || exit ${AS_USER_NOT_FILE}; ` +
      `exec flock ${wait} "$1" sh -c 'printf "%s\\n" "$TEND_HOLDER" > "$0"; echo locked; exec cat >/dev/null' "$1"`;
    const child = childProcesses().spawn("/bin/sh", ["-c", script, "tend-lock", this.path], {
      uid: user.uid,
      gid: user.gid,
      env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", TEND_HOLDER: holder },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const outcome = await new Promise<"locked" | number>((resolve) => {
      let said = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        said += chunk.toString();
        if (said.includes("locked")) resolve("locked");
      });
      child.on("exit", (code) => resolve(code ?? 1));
      child.on("error", () => resolve(2));
    });
    if (outcome === "locked") {
      this.holderChild = child;
      return;
    }
    if (outcome === AS_USER_LINK) throw errors.unsafePath(this.path, "it is a symlink tend did not make, and tend never goes through one", { action: "open the lock" });
    if (outcome === AS_USER_NOT_FILE) throw notAFile(this.path, undefined);
    if (outcome !== 1) throw errors.usage(`cannot take the lock ${this.path} as uid ${user.uid}: the lock holder exited ${outcome}; is flock (util-linux) installed?`);
    const shown = childProcesses().spawnSync("/bin/cat", [this.path], { uid: user.uid, gid: user.gid, encoding: "utf8" }).stdout;
    let who = "holder unknown";
    try {
      const parsed = JSON.parse(shown) as LockHolder;
      who = `pid ${parsed.pid} on ${parsed.host}, since ${parsed.since}: tend ${parsed.command}`;
    } catch {
      // written by an older tend, or being written now
    }
    throw errors.locked(this.path, who);
  }

  private me(): LockHolder {
    return { pid: process.pid, host: hostname(), since: new Date().toISOString(), command: process.argv.slice(2).join(" ") };
  }

  /** Gives the lock up: the holder's name is cleared, then the file closed (which unlocks it). */
  release(): void {
    if (this.holderChild) {
      this.holderChild.stdin?.end();
      this.holderChild = undefined;
      return;
    }
    if (this.fd === undefined) return;
    watchCommands(undefined);
    try {
      ftruncateSync(this.fd, 0);
    } catch {
      // closing unlocks regardless
    }
    closeSync(this.fd);
    this.fd = undefined;
  }

  /**
   * The lock file, opened for reading and writing (made when missing), never through a link. Only
   * a regular file is ever opened: a device there (an image root can hold any node) is not opened
   * at all, and what the open found is checked again, so a FIFO or a device swapped in meanwhile is
   * never truncated or written.
   */
  private open(): number {
    let fd: number;
    try {
      ensureRealDir("/", dirname(this.path), 0o755);
      const found = lstatSync(this.path, { throwIfNoEntry: false });
      if (found && !found.isFile() && !found.isSymbolicLink()) throw notAFile(this.path, found.isDirectory());
      fd = openSync(this.path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644);
    } catch (error) {
      throw fsError(error, "open the lock", this.path);
    }
    let opened: Stats;
    try {
      opened = fstatSync(fd);
    } catch (error) {
      closeSync(fd);
      throw fsError(error, "open the lock", this.path);
    }
    if (opened.isFile()) return fd;
    closeSync(fd);
    throw notAFile(this.path, opened.isDirectory());
  }

  private stillNamed(fd: number): boolean {
    try {
      const mine = fstatSync(fd);
      const named = lstatSync(this.path);
      return mine.ino === named.ino && mine.dev === named.dev;
    } catch {
      return false;
    }
  }

  /**
   * Names the holder in the file, with the process groups of the commands it runs (rewritten as
   * they start and end). Not synced: only a contender reads it, through the same kernel, while the
   * lock is held, and the next holder, after a kill, to wait for the commands left running (see
   * waitForLeftCommands); after a power cut nothing is left running.
   */
  private writeHolder(fd: number, commands = runningCommands(), releaseOnFailure = true): void {
    this.named ??= this.me();
    const text = `${JSON.stringify({ ...this.named, ...(commands.length > 0 ? { commands } : {}) })}\n`;
    try {
      const length = writeSync(fd, text, 0);
      ftruncateSync(fd, length);
    } catch (error) {
      if (releaseOnFailure) this.release();
      throw fsError(error, "write the lock", this.path);
    }
  }

  private named: LockHolder | undefined;
}

/**
 * Waits, holding the lock, for the commands the lock file says its last holder was running: an
 * apply killed (SIGKILL, OOM) leaves its commands running (each leads a process group of its own,
 * detached), and an `rc-service restart` or `dinitctl start` that finishes after the next apply
 * has looked at the host would undo what that apply did, after it verified. A holder that ended
 * cleanly cleared the file. Each group is waited for until no process of it is left, at most
 * LEFT_COMMANDS_WAIT_MS in all (past every deadline tend gives a command).
 */
async function waitForLeftCommands(fd: number): Promise<void> {
  let left: RunningCommand[] = [];
  try {
    const text = readFileSync(fd, "utf8");
    const holder = text.trim() === "" ? undefined : (JSON.parse(text) as LockHolder);
    if (holder && holder.pid !== process.pid && Array.isArray(holder.commands)) {
      left = holder.commands.filter((c) => Number.isInteger(c?.group) && c.group > 1 && (c.start === undefined || typeof c.start === "string"));
    }
  } catch {
    return; // a name cut short, or none: nothing to wait for that can be known
  }
  const deadline = performance.now() + LEFT_COMMANDS_WAIT_MS;
  while (left.some(stillRunning) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

const PERL_FLOCK =
  'use Fcntl qw(:flock); use Time::HiRes qw(sleep time); open(my $fh, ">&=3") or exit 2; my $end = time + $ARGV[0]; ' +
  "until (flock($fh, LOCK_EX | LOCK_NB)) { exit 1 if time >= $end; sleep 0.05; } exit 0;";

/** Runs `flock` (util-linux) or `perl` on descriptor 3 = `fd`: true when locked, false when held elsewhere. */
function flockChild(fd: number, waitMs: number, tool?: "flock" | "perl"): Promise<boolean> {
  const seconds = (waitMs / 1000).toFixed(3);
  const useFlock = tool === "perl" ? undefined : ["/usr/bin/flock", "/bin/flock", "/usr/local/bin/flock"].find((p) => existsSync(p));
  const [file, args] = useFlock
    ? [useFlock, waitMs > 0 ? ["-w", seconds, "3"] : ["-n", "3"]]
    : ["perl", ["-e", PERL_FLOCK, seconds]];
  return new Promise((resolve, reject) => {
    const child = childProcesses().spawn(file, args, { stdio: ["ignore", "ignore", "pipe", fd] });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", (error) => reject(errors.usage(`cannot take the lock: ${file} could not run (${error.message}); install util-linux's flock or perl`)));
    child.on("exit", (code) => {
      if (code === 0) resolve(true);
      else if (code === 1) resolve(false);
      else reject(errors.usage(`cannot take the lock: ${file} exited ${code}${stderr ? `: ${stderr.trim()}` : ""}`));
    });
  });
}

/** How the child taking a user's lock as her says a link, or something not a file, is at its path. */
const AS_USER_LINK = 4;
const AS_USER_NOT_FILE = 5;

/** A lock path that holds something tend never opens as its lock (`folder`: a folder, true, or a device, FIFO or socket, false; undefined: either). */
function notAFile(path: string, folder: boolean | undefined): TendError {
  const what = folder === undefined ? "a folder, device, FIFO or socket" : folder ? "a folder" : "a device, FIFO or socket";
  return errors.unsafePath(path, `it is ${what}, not a file`, {
    action: "open the lock",
    hint: "Move it away: tend makes the lock file itself",
  });
}
