/**
 * What a write puts in a file: its text, or, for text too big to hold well as one string (the
 * state.json of thousands of resources), a function giving the text's pieces in order, called
 * once when the file is written. tend's own process writes the pieces as they come.
 */
export type FileContent = string | (() => Iterable<string>);

/** The whole text, for a writer that hands it on in one piece (a child process, a remote host). */
export function contentText(content: FileContent): string {
  return typeof content === "string" ? content : [...content()].join("");
}
