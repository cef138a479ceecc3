import { spawn } from "node:child_process";
import { SessionPool } from "../ssh/session-pool.js";
import { collect, scriptText, type ShellChannel, type ShellResult } from "../ssh/ssh-connection.js";

/**
 * This machine's sh standing in for a host over ssh: the same scripts, run locally through the
 * same long-lived sessions as SshConnection's (a command of their own when the input needs one).
 */
export class LocalChannel implements ShellChannel {
  scripts: string[] = [];
  private readonly pool = new SessionPool(() => spawn("/bin/sh", [], { stdio: ["pipe", "pipe", "pipe"] }), "local");

  script(script: string, timeoutMs = 30_000): Promise<ShellResult> {
    this.scripts.push(script);
    return this.command("/bin/sh -s", scriptText(script), timeoutMs);
  }
  async command(line: string, input: string, timeoutMs = 30_000): Promise<ShellResult> {
    return (await this.pool.run(line, input, timeoutMs)) ?? (await collect(spawn("/bin/sh", ["-c", line], { stdio: ["pipe", "pipe", "pipe"] }), input, timeoutMs, "local"));
  }
  hold(line: string) {
    return spawn("/bin/sh", ["-c", line], { stdio: ["pipe", "pipe", "pipe"] });
  }
  close(): void {
    this.pool.close();
  }
}
