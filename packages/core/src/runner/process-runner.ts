import type { ChildProcess } from "node:child_process";
import type { Writable } from "node:stream";
import type { Command, CommandResult, Runner } from "../contract/runner.js";
import { errors } from "../errors/catalogue.js";
import { sizeText } from "../output/size-text.js";
import { checkExit } from "./check-exit.js";
import { childProcesses } from "./child-process.js";
import { gatedArgs, programFound } from "./command-gate.js";
import { OutputFiles } from "./output-files.js";
import { commandEnded, commandStarted, commandsWatched, runningCommands } from "./command-groups.js";

const DEFAULT_TIMEOUT_MS = 60_000;
const BASE_ENV = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", LC_ALL: "C" };
/** More output than any init command gives; past it the command is killed and fails. */
const MAX_OUTPUT_BYTES = 100 * 1024 * 1024;

/** Whether the groups still running are ended with tend if it exits first (an error, a signal). */
let endsWithTend = false;

/**
 * The production runner, on Node's own `spawn`: each command in its own process group, killed as
 * a group (TERM, then KILL after 5 s) when its deadline passes, so a hung `systemctl` cannot hang
 * tend; a group still running when tend exits is sent TERM. (execa did the same at ~30 ms of
 * loading per run: most of a no-op plan's own time.)
 */
export class ProcessRunner implements Runner {
  async run(command: Command): Promise<CommandResult> {
    const timeout = command.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const [file, ...args] = command.argv;
    if (!file) throw errors.usage("empty command");
    const env = { ...BASE_ENV, ...command.env };
    const outcome = await runDetached(file, args, { env, input: command.input ?? "", timeout, ...(command.asUser ? { uid: command.asUser.uid, gid: command.asUser.gid } : {}) });
    if (outcome.kind === "timed out") throw errors.commandFailed(command.argv, undefined, `timed out after ${timeout / 1000} s; its process group was killed`);
    if (outcome.kind === "not found") {
      throw errors.commandFailed(command.argv, undefined, `${file} is not installed (no such program on PATH ${env.PATH})`, {
        hint: `Install ${file} on this machine: tend runs the init's own tools, under --root too`,
      });
    }
    if (outcome.kind === "failed") throw errors.commandFailed(command.argv, undefined, outcome.reason);
    return checkExit(command, { exitCode: outcome.exitCode, stdout: outcome.stdout, stderr: outcome.stderr });
  }
}

/** @deprecated The runner no longer uses execa: use {@link ProcessRunner}. */
export const ExecaRunner = ProcessRunner;

type Outcome =
  | { kind: "exited"; exitCode: number; stdout: string; stderr: string }
  | { kind: "timed out" }
  | { kind: "not found" }
  | { kind: "failed"; reason: string };

interface SpawnOptions {
  env: Record<string, string>;
  input: string;
  timeout: number;
  uid?: number;
  gid?: number;
}

function runDetached(file: string, args: string[], options: SpawnOptions): Promise<Outcome> {
  return new Promise((resolve) => {
    // Under a lock the command waits at the gate until the lock names it (see command-gate.ts).
    const gated = commandsWatched();
    if (gated && !programFound(file, options.env.PATH)) {
      resolve({ kind: "not found" });
      return;
    }
    let child: ChildProcess;
    // Under the gate, output goes to files: a pipe would break if tend were killed (output-files.ts).
    let files: OutputFiles | undefined;
    try {
      const spawnOptions = { detached: true, env: options.env, uid: options.uid, gid: options.gid };
      files = gated ? new OutputFiles() : undefined;
      child = files
        ? childProcesses().spawn("/bin/sh", gatedArgs(file, args, options.env), { ...spawnOptions, stdio: ["pipe", files.out, files.err, "pipe"] })
        : childProcesses().spawn(file, args, { ...spawnOptions, stdio: ["pipe", "pipe", "pipe"] });
    } catch (error) {
      files?.close();
      resolve(spawnFailure(error));
      return;
    }
    const pid = child.pid;
    if (pid !== undefined) track(pid);
    if (gated) {
      const gate = child.stdio[3] as Writable;
      gate.on("error", () => {});
      gate.end("\n");
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let bytes = 0;
    let timedOut = false;
    let overflow = false;
    let spawnError: unknown;
    const tooMuch = () => {
      overflow = true;
      killGroup(pid, "SIGKILL");
    };
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_OUTPUT_BYTES && !overflow) tooMuch();
      if (!overflow) into.push(chunk);
    };
    const watch = files ? setInterval(() => !overflow && files.size() > MAX_OUTPUT_BYTES && tooMuch(), 250) : undefined;
    if (!files) {
      child.stdout!.on("data", collect(out));
      child.stderr!.on("data", collect(err));
    }
    // A command that exits without reading its input closes the pipe: not an error of tend's.
    child.stdin!.on("error", () => {});
    child.stdin!.end(options.input);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(pid, "SIGTERM");
      setTimeout(() => killGroup(pid, "SIGKILL"), 5_000).unref();
    }, options.timeout);
    child.on("error", (error) => {
      spawnError = error;
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      clearInterval(watch);
      const output = files && !overflow ? files.read() : { stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") };
      files?.close();
      if (pid !== undefined) commandEnded(pid);
      // The leader is gone; anything left in its group (a child ignoring TERM) dies now.
      if (timedOut) killGroup(pid, "SIGKILL");
      if (timedOut) resolve({ kind: "timed out" });
      else if (spawnError !== undefined) resolve(spawnFailure(spawnError));
      else if (overflow) resolve({ kind: "failed", reason: `printed more than ${sizeText(MAX_OUTPUT_BYTES)}; killed` });
      else if (code === null) resolve({ kind: "failed", reason: signal ? `killed by ${signal}` : "killed" });
      else resolve({ kind: "exited", exitCode: code, ...output });
    });
  });
}

function spawnFailure(error: unknown): Outcome {
  if ((error as { code?: string }).code === "ENOENT") return { kind: "not found" };
  return { kind: "failed", reason: `could not run: ${(error as Error).message ?? String(error)}` };
}

function track(pid: number): void {
  commandStarted(pid);
  if (endsWithTend) return;
  endsWithTend = true;
  process.once("exit", () => {
    for (const { group } of runningCommands()) killGroup(group, "SIGTERM");
  });
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}
