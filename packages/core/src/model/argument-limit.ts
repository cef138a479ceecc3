/**
 * The most bytes one string of a program's arguments or environment may hold: Linux refuses
 * `execve` with E2BIG for any longer one (MAX_ARG_STRLEN, 32 pages, counting the closing NUL),
 * whatever the stack's limit. A service whose exec or env breaks it would validate, be written
 * and then never start, so the spec is refused instead.
 */
export const MAX_ARGUMENT_BYTES = 32 * 4096 - 1;

/** Why one argument or environment string (`NAME=value`) cannot reach a program, or undefined. */
export function argumentSizeProblem(what: string, text: string): string | undefined {
  if (text.length <= MAX_ARGUMENT_BYTES / 3) return undefined;
  const bytes = Buffer.byteLength(text);
  if (bytes <= MAX_ARGUMENT_BYTES) return undefined;
  return `${what} is ${bytes.toLocaleString("en-US")} bytes, and Linux starts no program with one over ${MAX_ARGUMENT_BYTES.toLocaleString("en-US")} (MAX_ARG_STRLEN)`;
}
