import { closeSync, constants, openSync, readSync, statSync } from "node:fs";
import { parseSvStatusLine, type SvStatus } from "./parse-sv-status.js";

/** TAI64's label of the Unix epoch: runsv stamps `supervise/status` with it added. */
const TAI_EPOCH = 4611686018427387914n;

/** runit's own words for the errors it names (its error_str), so a line reads as sv's would. */
const ERROR_TEXT: Record<string, string> = {
  ENOENT: "file does not exist",
  EACCES: "access denied",
  EPERM: "permission denied",
  ENXIO: "device not configured",
  ENOTDIR: "not a directory",
  EISDIR: "is a directory",
  EIO: "input/output error",
  EAGAIN: "temporary failure",
  EINTR: "interrupted system call",
  ENOMEM: "out of memory",
};

export const errorText = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code ?? "";
  return ERROR_TEXT[code] ?? ((error as Error).message || code);
};

/**
 * What `sv status DIR` prints, read the way sv reads it, without starting sv: runsv's presence
 * from `supervise/ok` (a FIFO only a live runsv reads: opened for writing without blocking, it
 * fails with ENXIO when none does), its 20-byte `supervise/status` (TAI64 stamp of the last
 * change, pid little-endian, paused, want, got TERM, run or finish), the `down` file, and the
 * same of `log/` when there is one. The line is sv's line (runit 2.1.2's sv.c), so it parses as
 * one (parseSvStatusLine). `dir` names the directory in the line; `real` is where it is read.
 * For this machine's own files only (HostFiles.local): a process per reading costs tend's main
 * thread a fork of itself, several times what these few system calls cost.
 */
export function readSuperviseStatus(dir: string, real: string, nowSeconds = Math.floor(Date.now() / 1000)): SvStatus | undefined {
  const tnow = TAI_EPOCH + BigInt(nowSeconds);
  const unreachable = notADirectory(real, dir);
  if (unreachable) return parseSvStatusLine(unreachable, dir);
  const service = statusOf(real, dir);
  if (typeof service === "string") return parseSvStatusLine(service, dir);
  let line = printStatus(service, real, dir, tnow);
  if (line === undefined) return undefined;
  // sv changes to `log/`: a missing one says nothing, any other failure a warning.
  const log = `${real}/log`;
  let logIsDir = false;
  try {
    logIsDir = statSync(log).isDirectory();
    if (!logIsDir) line += `; warning: ${dir}/log: unable to change directory: not a directory`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") line += `; warning: ${dir}/log: unable to change directory: ${errorText(error)}`;
  }
  if (logIsDir) {
    const logStatus = statusOf(log, `${dir}/log`);
    line += `; ${typeof logStatus === "string" ? logStatus : (printStatus(logStatus, log, "log", tnow) ?? "")}`;
  }
  return parseSvStatusLine(line, dir);
}

/** What sv prints when it cannot change to the service directory, or undefined when it can. */
export function notADirectory(real: string, dir: string): string | undefined {
  try {
    if (statSync(real).isDirectory()) return undefined;
    return `fail: ${dir}: unable to change to service directory: not a directory`;
  } catch (error) {
    return `fail: ${dir}: unable to change to service directory: ${errorText(error)}`;
  }
}

/**
 * sv's open_write of a FIFO runsv reads (`ok`, `control`), without blocking: the descriptor, or
 * the line sv prints when it cannot (ENXIO: no runsv reads it).
 */
export function openRunsvFifo(real: string, fifo: "ok" | "control", name: string): number | string {
  try {
    return openSync(`${real}/supervise/${fifo}`, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENXIO") return `fail: ${name}: runsv not running`;
    return `warning: ${name}: unable to open supervise/${fifo}: ${errorText(error)}`;
  }
}

/** sv's svstatus_get: the 20 status bytes, or the line sv prints instead. */
export function statusOf(real: string, name: string): Buffer | string {
  const ok = openRunsvFifo(real, "ok", name);
  if (typeof ok === "string") return ok;
  closeSync(ok);
  let fd: number;
  try {
    fd = openSync(`${real}/supervise/status`, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return `warning: ${name}: unable to open supervise/status: ${errorText(error)}`;
  }
  const bytes = Buffer.alloc(20);
  let read: number;
  try {
    read = readSync(fd, bytes, 0, 20, null);
  } catch (error) {
    return `warning: ${name}: unable to read supervise/status: ${errorText(error)}`;
  } finally {
    closeSync(fd);
  }
  return read === 20 ? bytes : `warning: ${name}: unable to read supervise/status: bad format`;
}

/** sv's svstatus_print; undefined where sv prints only a warning (a `down` file it cannot stat). */
function printStatus(status: Buffer, real: string, name: string, tnow: bigint): string | undefined {
  let normallyUp = false;
  try {
    statSync(`${real}/down`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return undefined;
    normallyUp = true;
  }
  const pid = status.readUInt32LE(12);
  const stamp = status.readBigUInt64BE(0);
  const run = status[19]!;
  const want = String.fromCharCode(status[17]!);
  let text = run === 1 ? "run: " : run === 2 ? "finish: " : run === 0 ? "down: " : "";
  text += `${name}: `;
  if (run !== 0) text += `(pid ${pid}) `;
  text += `${tnow < stamp ? 0n : tnow - stamp}s`;
  if (pid && !normallyUp) text += ", normally down";
  if (!pid && normallyUp) text += ", normally up";
  if (pid && status[16]) text += ", paused";
  if (!pid && want === "u") text += ", want up";
  if (pid && want === "d") text += ", want down";
  if (pid && status[18]) text += ", got TERM";
  return text;
}
