import { isUtf8 } from "node:buffer";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { orNull } from "./missing-as-null.js";

/** A file's text, and its bytes when they are not UTF-8 (the text then holds U+FFFD for them). */
export interface FileText {
  text: string;
  bytes?: Uint8Array;
}

/**
 * A regular file's text (UTF-8), never through a link and never blocking on a FIFO; null when
 * nothing, a link or anything but a regular file is there.
 */
export function readRegular(real: string): string | null {
  return readRegularFile(real)?.text ?? null;
}

/** `readRegular`, with the file's bytes too when they are not UTF-8, from the same read. */
export function readRegularFile(real: string): FileText | null {
  let fd: number | null;
  try {
    fd = orNull(() => openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") return null; // a link: not a file tend wrote
    throw error;
  }
  if (fd === null) return null;
  try {
    // The open did not follow a link; what it opened is what counts.
    const info = fstatSync(fd);
    if (!info.isFile()) return null;
    return readOpenFile(fd, info.size);
  } finally {
    closeSync(fd);
  }
}

/** The room reads start with: most files tend reads (units, scripts, /proc's `stat` and `maps`) fit. */
const SCRATCH_START = 65536;
/** The most room kept between reads once a bigger file made it grow. */
const SCRATCH_KEPT = 1 << 20;
/**
 * The buffer every read goes through, kept between reads (each read's text leaves it as a new
 * string, and reads are synchronous): no buffer made and collected per file, which cost ~7 ms of
 * a plan of 200 services.
 */
let scratch: Buffer | undefined;

/**
 * An open file's text (UTF-8), from its size as just seen: readFileSync would ask for the size
 * again, one more system call per file read. A read that comes back short at or past that size is
 * the end; a file that grew meanwhile is read on to its end. A file that says it is empty may be
 * made as it is read (/proc, /sys: a process's `maps` is a few kB): it is read to its end.
 */
export function readOpen(fd: number, size: number): string {
  return readOpenFile(fd, size).text;
}

/** `readOpen`, with the bytes too when they are not UTF-8 (a copy: the buffer is reused). */
function readOpenFile(fd: number, size: number): FileText {
  scratch ??= Buffer.allocUnsafeSlow(SCRATCH_START);
  let buffer = size < scratch.length ? scratch : Buffer.allocUnsafe(size + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      const grown = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
      if (grown.length <= SCRATCH_KEPT) scratch = grown;
    }
    const wanted = buffer.length - length;
    const read = readSync(fd, buffer, length, wanted, null);
    length += read;
    // A made file may come in pieces shorter than asked for: only its end (0) ends it.
    if (read === 0 || (size > 0 && read < wanted && length >= size)) {
      const text = buffer.toString("utf8", 0, length);
      // Only a text holding U+FFFD can stand for bytes that are not UTF-8: no second look at the rest.
      if (!text.includes("\uFFFD") || isUtf8(buffer.subarray(0, length))) return { text };
      return { text, bytes: Buffer.from(buffer.subarray(0, length)) };
    }
  }
}
