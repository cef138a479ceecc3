import { spawn } from "node:child_process";
import { collect, type ShellChannel, type ShellResult } from "../ssh/ssh-connection.js";

/** This machine's sh standing in for a host over ssh: the same scripts, run locally. */
export class LocalChannel implements ShellChannel {
  scripts: string[] = [];
  script(script: string, timeoutMs = 30_000): Promise<ShellResult> {
    this.scripts.push(script);
    return collect(spawn("/bin/sh", ["-s"], { stdio: ["pipe", "pipe", "pipe"] }), script, timeoutMs, "local");
  }
  command(line: string, input: string, timeoutMs = 30_000): Promise<ShellResult> {
    return collect(spawn("/bin/sh", ["-c", line], { stdio: ["pipe", "pipe", "pipe"] }), input, timeoutMs, "local");
  }
  hold(line: string) {
    return spawn("/bin/sh", ["-c", line], { stdio: ["pipe", "pipe", "pipe"] });
  }
}
