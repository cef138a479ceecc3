import { closeSync, constants, fstatSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * open(2)'s O_TMPFILE on Linux (`__O_TMPFILE | O_DIRECTORY`): an unnamed file in the file system
 * of the folder given. A kernel or file system without it fails the open (EISDIR, EOPNOTSUPP).
 */
const O_TMPFILE = 0o20000000 | constants.O_DIRECTORY;

/**
 * Where a command started through the gate (command-gate.ts) writes its output: two files without
 * a name, that it inherits as stdout and stderr. A pipe to tend would break when tend is killed,
 * and the command would die of SIGPIPE at its next line, midway (an `rc-service restart` that had
 * stopped the service and not yet started it): a file takes its output to the end, whoever reads
 * it, and goes with its last descriptor. On Linux the files never have a name (O_TMPFILE), so
 * tend killed at any moment leaves nothing in TMPDIR; elsewhere they are made in a new folder and
 * unlinked at once, which a kill between the two leaves behind.
 */
export class OutputFiles {
  readonly out: number;
  readonly err: number;

  constructor() {
    const unnamed = openUnnamedPair(tmpdir());
    if (unnamed !== undefined) {
      [this.out, this.err] = unnamed;
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), "tend-output-"));
    try {
      this.out = openUnlinked(join(dir, "out"));
      this.err = openUnlinked(join(dir, "err"));
    } finally {
      rmdirSync(dir);
    }
  }

  /** Bytes written so far, both files together. */
  size(): number {
    return fstatSync(this.out).size + fstatSync(this.err).size;
  }

  read(): { stdout: string; stderr: string } {
    return { stdout: readAll(this.out), stderr: readAll(this.err) };
  }

  close(): void {
    closeSync(this.out);
    closeSync(this.err);
  }
}

/** Two unnamed files in `dir` (see O_TMPFILE), or undefined where the system cannot make them. */
function openUnnamedPair(dir: string): [number, number] | undefined {
  if (process.platform !== "linux") return undefined;
  const opened: number[] = [];
  try {
    while (opened.length < 2) opened.push(openSync(dir, O_TMPFILE | constants.O_RDWR, 0o600));
    return [opened[0]!, opened[1]!];
  } catch {
    for (const fd of opened) closeSync(fd);
    return undefined;
  }
}

function openUnlinked(path: string): number {
  const fd = openSync(path, "wx+", 0o600);
  unlinkSync(path);
  return fd;
}

function readAll(fd: number): string {
  const buffer = Buffer.alloc(fstatSync(fd).size);
  let done = 0;
  while (done < buffer.length) {
    const read = readSync(fd, buffer, done, buffer.length - done, done);
    if (read === 0) break;
    done += read;
  }
  return buffer.subarray(0, done).toString("utf8");
}
