import { isUtf8 } from "node:buffer";
import { readFile } from "node:fs/promises";
import { errors } from "../errors/catalogue.js";
import { unreadable } from "../files/input-file.js";

/**
 * A YAML spec's text. YAML is Unicode: bytes that are not UTF-8 (a file saved as Latin-1) are
 * refused at their line, never decoded to U+FFFD and written to the host as other bytes than
 * the admin typed.
 */
export async function readSpecText(file: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem = code === "EACCES" || code === "EPERM" ? unreadable(file, "spec") : { message: `${file} cannot be read: ${code ?? (error as Error).message}`, hint: "Check the file and the device it is on" };
    throw errors.spec(problem.message, { file, hint: problem.hint, cause: error });
  }
  return refuseEmpty(specTextOf(bytes, file), file, `${file} is empty`, "Check what wrote it; to remove everything on purpose, make it a spec of one comment (# nothing)");
}

/**
 * A YAML spec with nothing in it, not even a comment: as a spec it would remove every resource
 * tend manages, and it is what a write that failed before its first line leaves (a generator
 * redirected into tend.yaml, an editor's save on a full disk). Refused; a spec of one comment
 * removes everything on purpose.
 */
export function refuseEmpty(text: string, file: string, what: string, hint: string): string {
  if (text.trim() === "") throw errors.spec(`${what}: as a spec it would remove every resource tend manages here`, { file, hint });
  return text;
}

/** A YAML spec's bytes as text, refused at its line when they are not UTF-8. */
export function specTextOf(bytes: Buffer, file: string): string {
  if (!isUtf8(bytes)) {
    const line = firstBadLine(bytes);
    throw errors.spec(`${file} is not UTF-8 text: line ${line} holds bytes that are not UTF-8 (a file saved as Latin-1?)`, {
      file,
      line,
      hint: "Save the spec as UTF-8 (iconv -f LATIN1 -t UTF-8)",
    });
  }
  return bytes.toString("utf8");
}

/** The 1-based line of the first bytes that are not UTF-8 (no sequence spans a newline). */
function firstBadLine(bytes: Buffer): number {
  let start = 0;
  for (let line = 1; ; line++) {
    const end = bytes.indexOf(0x0a, start);
    if (!isUtf8(bytes.subarray(start, end === -1 ? bytes.length : end))) return line;
    if (end === -1) return line;
    start = end + 1;
  }
}
