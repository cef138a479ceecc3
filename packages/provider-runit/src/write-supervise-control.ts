import { closeSync, writeSync } from "node:fs";
import { errorText, notADirectory, openRunsvFifo, statusOf } from "./read-supervise-status.js";

/** The sv commands that only write their letter to runsv's `supervise/control`, never waiting (`sv stop` waits: not one). */
const LETTERS: Record<string, string> = { up: "u", down: "d", once: "o", pause: "p", cont: "c", hup: "h", alarm: "a", interrupt: "i", quit: "q", "1": "1", "2": "2", term: "t", kill: "k" };

/** The control letter of `sv COMMAND` when it is one sv only writes (see LETTERS), else undefined. */
export function controlLetter(args: string[]): string | undefined {
  return args.length === 1 ? LETTERS[args[0]!] : undefined;
}

/**
 * `sv COMMAND DIR` for a command that writes one letter to `supervise/control`, done as sv does
 * it (runit 2.1.2's sv.c, control()) without starting sv: the status first (runsv must be
 * there), no write when runsv already wants what is asked (but `d` again after `t`), then the
 * FIFO opened for writing without blocking (ENXIO: no runsv reads it) and the letter written.
 * Returns the line sv would print, which only a failure prints, or undefined.
 */
export function writeSuperviseControl(dir: string, real: string, letter: string): string | undefined {
  const unreachable = notADirectory(real, dir);
  if (unreachable) return unreachable;
  const status = statusOf(real, dir);
  if (typeof status === "string") return status;
  if (String.fromCharCode(status[17]!) === letter && (letter !== "d" || status[18] === 1)) return undefined;
  const fd = openRunsvFifo(real, "control", dir);
  if (typeof fd === "string") return fd;
  try {
    if (writeSync(fd, letter) !== 1) return `warning: ${dir}: unable to write to supervise/control`;
  } catch (error) {
    return `warning: ${dir}: unable to write to supervise/control: ${errorText(error)}`;
  } finally {
    closeSync(fd);
  }
  return undefined;
}
