import type { HostImageName } from "./host-images.js";
import type { Truthy, WaitForOptions } from "./wait-for.js";

/** How a command run in a test host ended. */
export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface ExecOptions {
  /**
   * Run as this user (name or uid) instead of root. On systemd the harness also sets
   * XDG_RUNTIME_DIR=/run/user/<uid>, so `systemctl --user` reaches the user's manager.
   */
  user?: string;
  /** Added to the container's environment for this command. */
  env?: Record<string, string>;
  /** Working folder. Default `/`. */
  cwd?: string;
  /** The command is killed after this long and exec throws. Default 120 s. */
  timeoutMs?: number;
}

/** How expectTend runs tend (as exec does), and how it must end. */
export interface ExpectTendOptions extends ExecOptions {
  /** The exit code tend must end with. Default 0. */
  exitCode?: number;
}

export interface WriteFileOptions {
  /** Permission bits. Default 0o644. */
  mode?: number;
  /** `user` or `user:group` for the file (missing parent folders are created owned by root). */
  owner?: string;
}

/** A running container booted into one init, driven the way an admin drives a host. */
export interface TestHost {
  readonly name: HostImageName;
  /** The container's id (for `docker` by hand while debugging). */
  readonly id: string;
  /** The image tag it runs. */
  readonly image: string;
  /** Runs argv inside, without a shell. A non-zero exit is returned, not thrown. */
  exec(argv: readonly string[], options?: ExecOptions): Promise<ExecResult>;
  /** Runs a script with /bin/sh -c. */
  sh(script: string, options?: ExecOptions): Promise<ExecResult>;
  /** Runs the built CLI inside: `node /opt/tend/packages/cli/dist/bin.js ...args`. */
  tend(args: readonly string[], options?: ExecOptions): Promise<ExecResult>;
  /**
   * Runs the built CLI as `tend` does and returns its stdout followed by its stderr. Throws when it
   * exits other than `options.exitCode` (default 0), with the command, that output and logs().
   */
  expectTend(args: readonly string[], options?: ExpectTendOptions): Promise<string>;
  /** Runs argv as `exec` does and returns its stdout; throws with the command and its output on a non-zero exit. */
  mustExec(argv: readonly string[], options?: ExecOptions): Promise<string>;
  /** Runs a script as `sh` does and returns its stdout; throws with the script and its output on a non-zero exit. */
  mustSh(script: string, options?: ExecOptions): Promise<string>;
  writeFile(path: string, content: string | Uint8Array, options?: WriteFileOptions): Promise<void>;
  /** A file's content as UTF-8; throws when it cannot be read. */
  readFile(path: string): Promise<string>;
  /** Polls `check` until it returns a truthy value; on timeout throws with `what` and the host's logs. */
  waitFor<T>(check: () => Promise<T> | T, options: WaitForOptions): Promise<Truthy<T>>;
  /** The init's status and log, then the container's own output: for failure messages. */
  logs(): Promise<string>;
  /**
   * Reboots the host as a power cycle would, keeping its disk: the init shuts down (`docker
   * restart`), the container starts again on the same filesystem with fresh tmpfs mounts (/run),
   * and this waits until the init has finished booting, as startHost does.
   */
  reboot(options?: RebootOptions): Promise<void>;
  /** Kills and removes the container. Safe to call twice. */
  stop(): Promise<void>;
}

export interface RebootOptions {
  /** A shell script that exits 0 once booted, instead of the image's own (which may wait for what a test undid). */
  ready?: string;
  /** Default 120 s. */
  bootTimeoutMs?: number;
}
