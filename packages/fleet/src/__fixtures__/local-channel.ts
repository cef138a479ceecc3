import { spawn } from "node:child_process";
import { SessionPool } from "../ssh/session-pool.js";
import { withLibrary, type ShellLibrary } from "../ssh/shell-library.js";
import { collect, scriptText, type ShellChannel, type ShellResult } from "../ssh/ssh-connection.js";

/**
 * This machine's sh standing in for a host over ssh: the same scripts, run locally through the
 * same long-lived sessions as SshConnection's (a command of their own when the input needs one).
 * `ownShell` runs every script in a shell of its own, as SshConnection does through sudo.
 */
export class LocalChannel implements ShellChannel {
  scripts: string[] = [];
  /** Shells the pool started. */
  opened = 0;
  private readonly pool = new SessionPool(() => {
    this.opened += 1;
    return spawn("/bin/sh", [], { stdio: ["pipe", "pipe", "pipe"], env: this.env });
  }, "local");
  private readonly env: NodeJS.ProcessEnv;

  /** `path`: folders searched before PATH (stand-in tools). */
  constructor(private readonly options: { ownShell?: boolean; path?: string } = {}) {
    this.env = options.path ? { ...process.env, PATH: `${options.path}:${process.env.PATH}` } : process.env;
  }

  async script(script: string, timeoutMs = 30_000, library?: ShellLibrary): Promise<ShellResult> {
    this.scripts.push(script);
    const inline = this.options.ownShell ? undefined : await this.pool.script(script, timeoutMs, library);
    return inline ?? (await this.command("/bin/sh -s", scriptText(withLibrary(script, library)), timeoutMs));
  }
  async command(line: string, input: string, timeoutMs = 30_000): Promise<ShellResult> {
    return (await this.pool.run(line, input, timeoutMs)) ?? (await collect(spawn("/bin/sh", ["-c", line], { stdio: ["pipe", "pipe", "pipe"], env: this.env }), input, timeoutMs, "local"));
  }
  hold(line: string) {
    return spawn("/bin/sh", ["-c", line], { stdio: ["pipe", "pipe", "pipe"] });
  }
  close(): void {
    this.pool.close();
  }
}
