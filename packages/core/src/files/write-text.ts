import { writeSync } from "node:fs";
import type { FileContent } from "./file-content.js";

/** UTF-16 units encoded per write: at most three bytes each, so a slice always fits the buffer. */
const SLICE = 1 << 16;
let scratch: Buffer | undefined;

/**
 * Writes text to `fd` as UTF-8, a slice at a time through one reused buffer, so a big text
 * never becomes a second copy of itself in memory. A slice never ends between the two halves of
 * a surrogate pair.
 */
export function writeText(fd: number, text: string): void {
  if (text.length <= SLICE) {
    writeAll(fd, Buffer.from(text, "utf8"));
    return;
  }
  scratch ??= Buffer.allocUnsafe(3 * SLICE);
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + SLICE);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    const length = scratch.write(text.slice(start, end), 0, "utf8");
    writeAll(fd, scratch.subarray(0, length));
    start = end;
  }
}

/** Writes a file's content to `fd`: its text, its bytes as they are, or its pieces as they come. */
export function writeContent(fd: number, content: FileContent): void {
  if (typeof content === "string") writeText(fd, content);
  else if (content instanceof Uint8Array) writeAll(fd, content);
  else writePieces(fd, content());
}

/** Writes pieces of text in order, gathered into writes of about a slice each. */
export function writePieces(fd: number, pieces: Iterable<string>): void {
  let gathered: string[] = [];
  let size = 0;
  for (const piece of pieces) {
    gathered.push(piece);
    size += piece.length;
    if (size < SLICE) continue;
    writeText(fd, gathered.join(""));
    gathered = [];
    size = 0;
  }
  if (size > 0) writeText(fd, gathered.join(""));
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
