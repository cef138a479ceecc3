import { parseExec, shellQuote } from "@tend/core/contract";

/**
 * The `command` lines of an init script for `parseExec(exec).argv`: the program an admin wrote
 * is what supervise-daemon or start-stop-daemon starts, signals and stops, and real shell syntax
 * runs through the one `/bin/sh -c` parseExec gives it.
 *
 * openrc-run runs `eval … $command -- $command_args`: both are split, globbed and then parsed as
 * shell once more before the program sees them. A plain word survives that as written. Any other
 * word is kept in its own variable, `tend_arg<N>` (N its place in the argv), that the eval expands
 * inside double quotes, so it reaches the program byte for byte, nothing in it split, globbed or
 * run early.
 */
export function renderCommand(exec: string): string[] {
  const argv = parseExec(exec).argv;
  const kept = argv.flatMap((word, index) => (isPlainWord(word) ? [] : [`tend_arg${index}=${shellQuote(word)}`]));
  const [program, ...args] = argv.map((word, index) => (isPlainWord(word) ? word : `"$tend_arg${index}"`));
  const lines = kept.length > 0 ? ["# openrc-run evaluates command and command_args once more: words that need quoting stay in tend_arg<N>", ...kept] : [];
  lines.push(`command=${quoteValue(program!)}`);
  if (args.length > 0) lines.push(`command_args=${quoteValue(args.join(" "))}`);
  return lines;
}

/** A word that means the same to the shell however often it is evaluated. */
function isPlainWord(word: string): boolean {
  return shellQuote(word) === word;
}

/** Plain words as they are (in double quotes when there are several); references to kept words single-quoted, unexpanded. */
function quoteValue(value: string): string {
  if (value.includes("$")) return `'${value}'`;
  return value.includes(" ") ? `"${value}"` : value;
}
