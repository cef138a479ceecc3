import type { ChildProcess } from "node:child_process";
import { hostname } from "node:os";
import { TendError, type HostLock } from "@tend/core";
import { q, type ShellChannel } from "../ssh/ssh-connection.js";

/**
 * The scope's lock on the target: one ssh session runs `flock -n LOCKFILE` around a `cat` that
 * waits on its stdin, so the lock is the kernel's and lasts exactly as long as the session: a
 * release closes stdin, a cut connection ends it too. The holder's name goes into the file (how a
 * contender, local or remote, names it). No flock on the target fails the host: tend invents no
 * weaker lock.
 */
export class RemoteLock implements HostLock {
  private holder: ChildProcess | undefined;

  constructor(
    private readonly channel: ShellChannel & { privilege?: string },
    private readonly host: string,
    /** The lock file's path on the target (under `targetRoot` in tests). */
    private readonly path: string,
  ) {}

  async acquire(timeoutMs = 0): Promise<void> {
    const me = JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString(), command: `${process.argv.slice(2).join(" ")} (over ssh)` });
    const wait = timeoutMs > 0 ? `-w ${(timeoutMs / 1000).toFixed(3)}` : "-n";
    const script =
      `umask 022; command -v flock >/dev/null 2>&1 || { echo noflock; exit 3; }; mkdir -p -- "$(dirname -- "$1")" || exit 2; ` +
      `[ ! -L "$1" ] || { echo link; exit 2; }; { [ -f "$1" ] || [ ! -e "$1" ]; } || { echo notfile; exit 2; }; ` +
      `flock ${wait} "$1" sh -c 'printf "%s\\n" "$2" > "$1"; echo locked; cat >/dev/null; : > "$1"' tend-lock "$1" "$2"; ` +
      `s=$?; [ $s = 1 ] && { echo held; cat -- "$1"; }; exit $s`;
    const line = `${this.channel.privilege ?? ""}/bin/sh -c ${q(script)} tend-lock ${q(this.path)} ${q(me)}`;
    const child = this.channel.hold(line);
    child.stderr!.resume();
    const outcome = await new Promise<{ said: string; code?: number }>((resolve) => {
      let said = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        said += chunk.toString();
        if (said.startsWith("locked\n")) resolve({ said });
      });
      child.on("close", (code) => resolve({ said, code: code ?? 255 }));
      child.on("error", () => resolve({ said, code: 127 }));
    });
    if (outcome.code === undefined) {
      this.holder = child;
      return;
    }
    if (outcome.said.startsWith("noflock")) {
      throw new TendError("TEND_FLEET_NO_FLOCK", `${this.host} has no flock (util-linux): tend cannot lock ${this.path} there`, {
        hint: "Install util-linux (flock) on the host; tend will not apply without a lock",
        resource: this.host,
      });
    }
    if (outcome.said.startsWith("held")) {
      let who = "holder unknown";
      try {
        const parsed = JSON.parse(outcome.said.slice(5).trim()) as { pid: number; host: string; since: string; command: string };
        who = `pid ${parsed.pid} on ${parsed.host}, since ${parsed.since}: tend ${parsed.command}`;
      } catch {
        // written by an older tend, or being written now
      }
      throw new TendError("TEND_LOCKED", `another tend apply holds the lock ${this.path} on ${this.host} (${who})`, { hint: "Wait for it to finish, or pass --lock-timeout SECONDS to wait", resource: this.host });
    }
    // flock would open whatever is there: through a link, or a FIFO, where it would wait for ever.
    const unsafe = outcome.said.startsWith("link") ? "it is a symlink tend did not make" : outcome.said.startsWith("notfile") ? "it is a folder, device, FIFO or socket, not a file" : undefined;
    if (unsafe) throw new TendError("TEND_UNSAFE_PATH", `refusing to open the lock ${this.path} on ${this.host}: ${unsafe}`, { hint: "Move it away: tend makes the lock file itself", resource: this.host });
    throw new TendError("TEND_FLEET_CONNECTION", `${this.host}: cannot take the lock ${this.path} (exit ${outcome.code})`, { resource: this.host });
  }

  release(): void {
    if (!this.holder) return;
    this.holder.stdin?.end();
    this.holder = undefined;
  }
}
