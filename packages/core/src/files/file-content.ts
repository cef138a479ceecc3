import { bytesOf } from "./bytes-of.js";

/**
 * What a write puts in a file: its text; bytes, written as they are (a backup of a file whose
 * bytes are not UTF-8); or, for text too big to hold well as one string (the state.json of
 * thousands of resources), a function giving the text's pieces in order, called once when the
 * file is written. tend's own process writes the pieces as they come.
 */
export type FileContent = string | Uint8Array | (() => Iterable<string>);

/** The whole text, for a writer that hands it on in one piece (a child process, a remote host); bytes are decoded as UTF-8. */
export function contentText(content: FileContent): string {
  if (typeof content === "string") return content;
  if (content instanceof Uint8Array) return bytesOf(content).toString("utf8");
  return [...content()].join("");
}
