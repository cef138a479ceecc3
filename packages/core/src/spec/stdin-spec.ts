import { fstatSync, readSync } from "node:fs";
import { isatty } from "node:tty";
import { errors } from "../errors/catalogue.js";
import { MAX_INPUT_BYTES } from "../files/input-file.js";
import { sizeText } from "../output/size-text.js";
import { refuseEmpty, specTextOf } from "./spec-text.js";

/** What `-f -` names: a YAML spec read from standard input. */
export const STDIN_SPEC = "-";

/** How errors and the spec's `file` name a spec read from stdin (its folder, for discovery, is the current one). */
export const STDIN_LABEL = "<stdin>";

/**
 * A YAML spec piped in (`-f -`), read to its end. Refused: a terminal (tend would wait for a
 * spec typed by hand), more than MAX_INPUT_BYTES, bytes that are not UTF-8, and nothing at all,
 * which is what a generator that failed before its first line pipes: as a spec it would remove
 * every resource tend manages.
 */
export function readStdinSpec(fd = 0): string {
  // Standard input is read once: a command that opens the spec twice (validate) gets the same text.
  if (fd === 0 && piped !== undefined) return piped;
  const text = readToEnd(fd);
  if (fd === 0) piped = text;
  return text;
}

let piped: string | undefined;

function readToEnd(fd: number): string {
  let info;
  try {
    info = fstatSync(fd);
  } catch (error) {
    throw errors.spec(`-f - reads the spec from standard input, which is closed (${(error as NodeJS.ErrnoException).code ?? "unknown"})`, { file: STDIN_LABEL, hint: "Pipe a YAML spec in: generate-spec | tend plan -f -" });
  }
  if (info.isCharacterDevice() && isatty(fd)) {
    throw errors.spec("-f - reads the spec from standard input, which is a terminal", { file: STDIN_LABEL, hint: "Pipe a YAML spec in (generate-spec | tend plan -f -), or pass the spec's file" });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const chunk = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let read: number;
    try {
      read = readSync(fd, chunk, 0, chunk.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A non-blocking pipe with nothing in it yet: wait for the writer.
      if (code === "EAGAIN") {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      if (code === "EOF") break;
      throw errors.spec(`-f -: standard input cannot be read: ${code ?? (error as Error).message}`, { file: STDIN_LABEL, hint: "Pipe a YAML spec in: generate-spec | tend plan -f -" });
    }
    if (read === 0) break;
    size += read;
    if (size > MAX_INPUT_BYTES) {
      throw errors.spec(`the spec on standard input is more than ${sizeText(MAX_INPUT_BYTES)}; a spec may be at most ${sizeText(MAX_INPUT_BYTES)}`, { file: STDIN_LABEL, hint: "Keep large contents out of the spec" });
    }
    chunks.push(Buffer.from(chunk.subarray(0, read)));
  }
  return refuseEmpty(
    specTextOf(Buffer.concat(chunks), STDIN_LABEL),
    STDIN_LABEL,
    "the spec on standard input is empty",
    "Check what produced it; to remove everything on purpose, pipe a spec of one comment (# nothing)",
  );
}
