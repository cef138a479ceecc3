import { closeSync, fstatSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Where a command started through the gate (command-gate.ts) writes its output: two files, opened
 * and unlinked at once, that it inherits as stdout and stderr. A pipe to tend would break when
 * tend is killed, and the command would die of SIGPIPE at its next line, midway (an `rc-service
 * restart` that had stopped the service and not yet started it): a file takes its output to the
 * end, whoever reads it, and goes with its last descriptor.
 */
export class OutputFiles {
  readonly out: number;
  readonly err: number;

  constructor() {
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
