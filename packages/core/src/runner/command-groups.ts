import { readFileSync } from "node:fs";
import { procStatFields } from "../observe/process-start.js";

/**
 * The commands tend is running now, each the leader of a process group of its own (see
 * ProcessRunner), and who wants to hear when they change: the scope's lock names them in its
 * file, so that after tend is killed the next apply can wait for what it left running.
 */
export interface RunningCommand {
  /** Its process group: the leader's pid. */
  group: number;
  /** When the leader started (`/proc/PID/stat` field 22), to tell it from a later process given the same pid. */
  start?: string;
}

const running = new Map<number, RunningCommand>();
let listener: ((commands: RunningCommand[]) => void) | undefined;

export function commandStarted(group: number): void {
  const start = startOf(group);
  running.set(group, { group, ...(start === undefined ? {} : { start }) });
  listener?.(runningCommands());
}

export function commandEnded(group: number): void {
  if (!running.delete(group)) return;
  listener?.(runningCommands());
}

export function runningCommands(): RunningCommand[] {
  return [...running.values()];
}

/** Whether a lock is naming the commands now: each is then started through the gate (command-gate.ts). */
export function commandsWatched(): boolean {
  return listener !== undefined;
}

/** Hears every change of the running commands (one listener: the lock held), or none with undefined. */
export function watchCommands(next: ((commands: RunningCommand[]) => void) | undefined): void {
  listener = next;
}

/**
 * Whether a command named in a lock file still runs: its leader (the process tend started, whose
 * pid is the group) is alive, not a zombie waiting for its new parent to reap it, and started when
 * the lock says (a later process given the pid is another). Not the whole group: a daemon the
 * command started can stay in it for its whole life (OpenRC's supervise-daemon stays in the group
 * of the `rc-service` that started it), and is not the command.
 */
export function stillRunning(command: RunningCommand): boolean {
  const fields = statOf(command.group);
  if (fields === undefined || fields[0] === "Z") return false;
  return command.start === undefined || fields[19] === command.start;
}

function startOf(pid: number): string | undefined {
  return statOf(pid)?.[19];
}

/** /proc/PID/stat's fields after the command name: [0] the state, [19] the start time. */
function statOf(pid: number): string[] | undefined {
  try {
    return procStatFields(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}
