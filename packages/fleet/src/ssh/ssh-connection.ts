import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TendError } from "@tend/core";
import type { SshDestination } from "../inventory/load-inventory.js";
import { terminateMaster } from "./mux-client.js";
import { SessionPool } from "./session-pool.js";
import { withLibrary, type ShellLibrary } from "./shell-library.js";

export { q, type ShellLibrary } from "./shell-library.js";

export interface ShellResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Where scripts run: a host over ssh, or (tests) this machine's sh. */
export interface ShellChannel {
  /**
   * Runs `script` with POSIX sh on the host (as root there), with `library` loaded: in a subshell
   * of a long-lived session's shell when it can (the session loads the library once), otherwise in
   * a shell of its own reading it from stdin. Nothing in a script reads its stdin.
   */
  script(script: string, timeoutMs?: number, library?: ShellLibrary): Promise<ShellResult>;
  /** Runs a command line (already quoted for sh) with `input` on its stdin. */
  command(line: string, input: string, timeoutMs?: number): Promise<ShellResult>;
  /** A long-lived command (the lock holder): its stdin stays open until tend closes it. */
  hold(line: string): ChildProcess;
}

/** A script ends with a newline (which changes nothing for sh), so that it can travel as a here-document. */
export function scriptText(script: string): string {
  return script.endsWith("\n") ? script : `${script}\n`;
}

/** ssh exits 255 when the connection, not the remote command, failed. */
export const SSH_FAILED = 255;

/**
 * One host over the system's OpenSSH client: a master connection (ControlMaster, persisting while
 * tend runs) in tend's private control folder, and over it a few long-lived shell sessions that
 * run the commands one after another ({@link SessionPool}): a command costs a round trip, not a
 * new ssh client and session. A command whose input cannot travel as a here-document, and the
 * lock holder, get a session of their own.
 * ssh_config is honoured (nothing here overrides it but the control settings and BatchMode, which
 * makes a prompt a failure); host keys are checked as ssh_config says, never turned off.
 */
export class SshConnection implements ShellChannel {
  /** `sudo -n ` when the login is not root (set once detection saw the uid). */
  privilege = "";
  private readonly controlPath: string;
  private readonly pool: SessionPool;

  constructor(
    readonly name: string,
    private readonly dest: SshDestination,
    private readonly controlDir: string,
  ) {
    // %C-like, but short: sockets have a ~100-byte path limit.
    this.controlPath = join(controlDir, createHash("sha256").update(name).digest("hex").slice(0, 16));
    this.pool = new SessionPool(() => this.spawnSsh("/bin/sh"), name);
  }

  /** Arguments naming the destination and its settings, before the remote command. */
  destinationArgs(): string[] {
    const args: string[] = [];
    if (this.dest.user) args.push("-l", this.dest.user);
    if (this.dest.port) args.push("-p", String(this.dest.port));
    if (this.dest.identity) args.push("-i", this.dest.identity);
    if (this.dest.jump) args.push("-J", this.dest.jump);
    for (const [key, value] of Object.entries(this.dest.options)) args.push("-o", `${key}=${value}`);
    args.push("-o", "BatchMode=yes", "-o", `ControlPath=${this.controlPath}`);
    return args;
  }

  /** Opens the master connection; a TEND_FLEET_UNREACHABLE naming ssh's reason otherwise. */
  async connect(timeoutMs = 30_000): Promise<void> {
    const log = join(this.controlDir, `${this.controlPath.slice(-16)}.log`);
    const fd = openSync(log, "w", 0o600);
    // The master lives on in the background: it must hold none of our pipes, or we wait for it.
    const child = spawn("ssh", ["-o", "ControlMaster=yes", "-o", "ControlPersist=yes", "-o", `ConnectTimeout=${Math.ceil(timeoutMs / 1000)}`, "-f", "-N", "-T", ...this.destinationArgs(), this.dest.host], {
      stdio: ["ignore", "ignore", fd],
    });
    closeSync(fd);
    const code = await exited(child, timeoutMs);
    if (code !== 0) {
      const said = readFileSync(log, "utf8").trim().split("\n").filter((l) => !l.startsWith("Warning: Permanently added")).join("; ");
      throw new TendError("TEND_FLEET_UNREACHABLE", `cannot reach ${this.name} over ssh${code === undefined ? " (timed out)" : ""}: ${said || `ssh exited ${code}`}`, {
        hint: `Check \`ssh ${this.dest.host}\` works without a prompt (keys, known_hosts, ssh_config)`,
        resource: this.name,
      });
    }
  }

  private spawnSsh(remote: string): ChildProcess {
    return spawn("ssh", ["-o", "ControlMaster=no", "-T", ...this.destinationArgs(), this.dest.host, "--", remote], { stdio: ["pipe", "pipe", "pipe"] });
  }

  async script(script: string, timeoutMs = 120_000, library?: ShellLibrary): Promise<ShellResult> {
    // As root, a script runs in the session's own shell; through sudo, in a root shell of its own.
    const inline = this.privilege === "" ? await this.pool.script(script, timeoutMs, library) : undefined;
    return inline ?? (await this.command(`${this.privilege}/bin/sh -s`, scriptText(withLibrary(script, library)), timeoutMs));
  }

  async command(line: string, input: string, timeoutMs = 120_000): Promise<ShellResult> {
    return (await this.pool.run(line, input, timeoutMs)) ?? (await collect(this.spawnSsh(line), input, timeoutMs, this.name));
  }

  hold(line: string): ChildProcess {
    return this.spawnSsh(line);
  }

  /** Ends the master connection (and with it every session still on it): asked over its control socket, or by `ssh -O exit` when that did not answer. */
  async close(): Promise<void> {
    this.pool.close();
    if ((await terminateMaster(this.controlPath, 10_000)) !== "failed") return;
    const child = spawn("ssh", ["-O", "exit", ...this.destinationArgs(), this.dest.host], { stdio: "ignore" });
    await exited(child, 10_000);
  }
}

function exited(child: ChildProcess, timeoutMs: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve(undefined);
    }, timeoutMs);
    child.on("error", () => {
      clearTimeout(timer);
      resolve(127);
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve(code ?? SSH_FAILED);
    });
  });
}

/** Feeds `input`, gathers the output; a deadline kills the client (the session ends with it). */
export function collect(child: ChildProcess, input: string, timeoutMs: number, name: string): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on("data", (c: Buffer) => out.push(c));
    child.stderr!.on("data", (c: Buffer) => err.push(c));
    child.stdin!.on("error", () => undefined);
    child.stdin!.end(input);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new TendError("TEND_FLEET_UNREACHABLE", `cannot run ssh for ${name}: ${error.message}`, { hint: "Install the OpenSSH client (ssh)", resource: name }));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString("utf8");
      if (timedOut) return reject(new TendError("TEND_FLEET_CONNECTION", `${name}: no answer within ${timeoutMs / 1000} s`, { resource: name }));
      resolve({ exitCode: code ?? (signal ? SSH_FAILED : 1), stdout: Buffer.concat(out).toString("utf8"), stderr });
    });
  });
}
