import type { StartedTestContainer } from "testcontainers";
import { HOST_IMAGE_SPECS, type HostImageName } from "./host-images.js";
import { runCommand } from "./run-command.js";
import type { ExecOptions, ExecResult, ExpectTendOptions, RebootOptions, TestHost, WriteFileOptions } from "./test-host.js";
import { waitForBoot } from "./wait-for-boot.js";
import { waitFor, type Truthy, type WaitForOptions } from "./wait-for.js";

/** Where the harness mounts the tend checkout and node inside every host. */
export const TEND_IN_HOST = "/opt/tend";
export const NODE_IN_HOST = "/usr/local/bin/node";

const DEFAULT_EXEC_TIMEOUT_MS = 120_000;

/** The TestHost behind startHost: a started testcontainers container. */
export class ContainerHost implements TestHost {
  readonly id: string;
  private stopped = false;
  private readonly uids = new Map<string, string>();

  constructor(
    readonly name: HostImageName,
    readonly image: string,
    private readonly container: StartedTestContainer,
  ) {
    this.id = container.getId();
  }

  async exec(argv: readonly string[], options: ExecOptions = {}): Promise<ExecResult> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS;
    // coreutils' timeout, so a hung command is killed inside rather than left running.
    const wrapped = ["timeout", "--kill-after=5", `${Math.ceil(timeoutMs / 1000)}`, ...argv];
    const started = Date.now();
    const result = await this.container.exec(wrapped, {
      user: options.user,
      workingDir: options.cwd,
      env: { ...(await this.userEnv(options.user)), ...options.env },
    });
    if ((result.exitCode === 124 || result.exitCode === 137) && Date.now() - started >= timeoutMs) {
      throw new Error(`\`${argv.join(" ")}\` did not finish within ${timeoutMs / 1000} s on the ${this.name} host\n${result.output}`);
    }
    return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
  }

  sh(script: string, options?: ExecOptions): Promise<ExecResult> {
    return this.exec(["/bin/sh", "-c", script], options);
  }

  tend(args: readonly string[], options?: ExecOptions): Promise<ExecResult> {
    return this.exec([NODE_IN_HOST, `${TEND_IN_HOST}/packages/cli/dist/bin.js`, ...args], options);
  }

  async expectTend(args: readonly string[], options: ExpectTendOptions = {}): Promise<string> {
    const { exitCode: expected = 0, ...execOptions } = options;
    const result = await this.tend(args, execOptions);
    const output = result.stdout + result.stderr;
    if (result.exitCode !== expected) {
      const what = `\`tend ${args.join(" ")}\` exited ${result.exitCode}, not ${expected}, ${this.where(options)}`;
      throw new Error(`${what}\n${output}\n${await this.logs()}`);
    }
    return output;
  }

  mustExec(argv: readonly string[], options: ExecOptions = {}): Promise<string> {
    return this.mustSucceed(argv, argv.join(" "), options);
  }

  mustSh(script: string, options: ExecOptions = {}): Promise<string> {
    return this.mustSucceed(["/bin/sh", "-c", script], script, options);
  }

  async writeFile(path: string, content: string | Uint8Array, options: WriteFileOptions = {}): Promise<void> {
    // Through exec, not Docker's copy API: a copy never reaches a tmpfs such as /run.
    const data = typeof content === "string" ? content : Buffer.from(content);
    const mode = (options.mode ?? 0o644).toString(8);
    const script = 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1" && chmod "$2" -- "$1"';
    await runCommand(["docker", "exec", "-i", this.id, "/bin/sh", "-c", script, "sh", path, mode], { input: data });
    if (options.owner !== undefined) await this.mustExec(["chown", "--", options.owner, path]);
  }

  async readFile(path: string): Promise<string> {
    return this.mustExec(["cat", "--", path]);
  }

  async waitFor<T>(check: () => Promise<T> | T, options: WaitForOptions): Promise<Truthy<T>> {
    try {
      return await waitFor(check, options);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`${message}\n\n${await this.logs()}`, { cause: error });
    }
  }

  async logs(): Promise<string> {
    const spec = HOST_IMAGE_SPECS[this.name];
    let status: string;
    try {
      const result = await this.exec(["/bin/sh", "-c", spec.status], { timeoutMs: 30_000 });
      status = `${result.stdout}${result.stderr}`;
    } catch (error) {
      status = `(cannot ask the init: ${error instanceof Error ? error.message : String(error)})`;
    }
    const output = await runCommand(["docker", "logs", "--tail", "100", this.id], { okCodes: "any" });
    return [
      `== ${this.name} host ${this.id.slice(0, 12)}: ${spec.status}`,
      status.trimEnd(),
      `== container output (last 100 lines)`,
      `${output.stdout}${output.stderr}`.trimEnd(),
    ].join("\n");
  }

  async reboot(options: RebootOptions = {}): Promise<void> {
    const spec = HOST_IMAGE_SPECS[this.name];
    // systemd shuts down cleanly on the image's stop signal; sysvinit ignores SIGTERM, so other
    // inits get a short grace before the kill (their services are killed at a power cut too).
    await runCommand(["docker", "restart", "--time", spec.bootsSystemd ? "30" : "3", this.id]);
    try {
      await waitForBoot(this, options.ready ?? spec.ready, options.bootTimeoutMs ?? 120_000);
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n\n${await this.logs()}`, { cause: error });
    }
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.container.stop({ remove: true, removeVolumes: true, timeout: 0 });
  }

  /** Runs argv and returns its stdout; `what` names it in the error a non-zero exit throws. */
  private async mustSucceed(argv: readonly string[], what: string, options: ExecOptions): Promise<string> {
    const result = await this.exec(argv, options);
    if (result.exitCode !== 0) {
      throw new Error(`\`${what}\` exited ${result.exitCode} ${this.where(options)}\n${result.stdout}${result.stderr}`.trimEnd());
    }
    return result.stdout;
  }

  /** "on the runit host", and as whom when not root: for error messages. */
  private where(options: ExecOptions): string {
    return `on the ${this.name} host${options.user === undefined ? "" : ` as ${options.user}`}`;
  }

  /** What a login would give `user`: USER, LOGNAME, and on systemd the runtime dir of its manager. */
  private async userEnv(user: string | undefined): Promise<Record<string, string>> {
    if (user === undefined || user === "root" || user === "0") return {};
    const env: Record<string, string> = /^\d+$/.test(user) ? {} : { USER: user, LOGNAME: user };
    if (HOST_IMAGE_SPECS[this.name].bootsSystemd) env.XDG_RUNTIME_DIR = `/run/user/${await this.uidOf(user)}`;
    return env;
  }

  private async uidOf(user: string): Promise<string> {
    if (/^\d+$/.test(user)) return user;
    let uid = this.uids.get(user);
    if (uid === undefined) {
      uid = (await this.mustExec(["id", "-u", "--", user])).trim();
      this.uids.set(user, uid);
    }
    return uid;
  }
}
