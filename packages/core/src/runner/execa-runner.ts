import type { Command, CommandResult, Runner } from "../contract/runner.js";
import { errors } from "../errors/catalogue.js";
import { checkExit } from "./check-exit.js";

const DEFAULT_TIMEOUT_MS = 60_000;
const BASE_ENV = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", LC_ALL: "C" };

/**
 * The production runner: each command in its own process group, killed as a group (TERM, then
 * KILL after 5 s) when its deadline passes, so a hung `systemctl` cannot hang tend.
 */
export class ExecaRunner implements Runner {
  async run(command: Command): Promise<CommandResult> {
    const { execa } = await import("execa");
    const timeout = command.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const [file, ...args] = command.argv;
    if (!file) throw errors.usage("empty command");
    const env = { ...BASE_ENV, ...command.env };
    const child = execa(file, args, {
      reject: false,
      detached: true,
      cleanup: true,
      input: command.input ?? "",
      env,
      extendEnv: false,
      stripFinalNewline: false,
      ...(command.asUser ? { uid: command.asUser.uid, gid: command.asUser.gid } : {}),
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, "SIGTERM");
      setTimeout(() => killGroup(child.pid, "SIGKILL"), 5_000).unref();
    }, timeout);
    try {
      const result = await child;
      // The leader is gone; anything left in its group (a child ignoring TERM) dies now.
      if (timedOut) killGroup(child.pid, "SIGKILL");
      if (timedOut) throw errors.commandFailed(command.argv, undefined, `timed out after ${timeout / 1000} s; its process group was killed`);
      if (result.exitCode === undefined) {
        if ((result as { code?: string }).code === "ENOENT") {
          throw errors.commandFailed(command.argv, undefined, `${file} is not installed (no such program on PATH ${env.PATH})`, {
            hint: `Install ${file} on this machine: tend runs the init's own tools, under --root too`,
          });
        }
        throw errors.commandFailed(command.argv, undefined, result.failed ? String(result.shortMessage ?? "could not run") : "killed");
      }
      return checkExit(command, { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) });
    } finally {
      clearTimeout(timer);
    }
  }
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}
