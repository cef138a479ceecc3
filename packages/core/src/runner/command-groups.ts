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
 * Whether a command named in a lock file still runs: some process of its group is alive (signal
 * 0; a group another user owns is not tend's), and the pid of its leader, if any process has it,
 * is still that leader. Linux gives no new process a pid its group still uses, so a group whose
 * leader exited while others of it live on is the command's; a live leader that started at
 * another time is a later process that was given the pid.
 */
export function stillRunning(command: RunningCommand): boolean {
  try {
    process.kill(-command.group, 0);
  } catch {
    return false;
  }
  const now = startOf(command.group);
  return now === undefined || command.start === undefined || now === command.start;
}

function startOf(pid: number): string | undefined {
  try {
    return procStatFields(readFileSync(`/proc/${pid}/stat`, "utf8"))[19];
  } catch {
    return undefined;
  }
}
