/**
 * An argv as an `ExecStart=` value that systemd splits back into exactly these words.
 *
 * systemd expands `%` specifiers and `$` variables in command lines, so every `%` becomes `%%`
 * and every `$` becomes `$$` (a literal `$` after its substitution). A word with white space, a
 * quote or a backslash, an empty word, and a lone `;` (systemd's command separator) is put in
 * double quotes, where systemd undoes C-style escapes, so `\` and `"` are escaped too.
 */
export function quoteCommandLine(argv: readonly string[]): string {
  return argv.map(quoteWord).join(" ");
}

function quoteWord(word: string): string {
  const expanded = word.replace(/%/g, "%%").replace(/\$/g, "$$$$");
  if (expanded !== "" && expanded !== ";" && !/[\s"'\\]/.test(expanded)) return expanded;
  return `"${escapeInQuotes(expanded)}"`;
}

/** C-style escapes for text inside systemd's double quotes. */
export function escapeInQuotes(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\t/g, "\\t");
}
