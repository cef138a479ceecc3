/**
 * Models of how each supported cron decodes a line's command field, ported loop for loop from
 * `child_process()` in each daemon's do_command.c:
 *
 * - Debian's cron 3.0pl1-162: the first loop ("If there are escaped %'s, remove the escape
 *   character") as debian/patches/fixes/Handle-escapes-in-job-input.patch leaves it, which
 *   un-escapes `\\` as well as `\%`.
 * - cronie (cronie-crond/cronie, src/do_command.c) and vixie-cron 4.1 (ISC cron 4.1,
 *   do_command.c): the same loop un-escaping `\%` only.
 * - All three: the second loop ("translation: \% -> %, % -> \n, \x -> \x for all x != %"),
 *   which turns the text after the first bare `%` into the job's stdin.
 *
 * The Debian model also matches what Debian's daemon itself did (see README.md here).
 */
export interface CronDecoding {
  /** What `$SHELL -c` receives. */
  command: string;
  /** What the job reads on stdin. */
  stdin: string;
}

export type CronDecoder = (field: string) => CronDecoding;

/** The first loop: `*--p = ch` un-escapes `%`, and in Debian `\` too; a bare `%` ends the command. */
function splitCommand(field: string, unescapesBackslash: boolean): { command: string; rest: string } {
  const out: string[] = [];
  let escaped = false;
  for (let i = 0; i < field.length; i += 1) {
    const ch = field[i]!;
    out.push(ch);
    if (escaped) {
      if (ch === "%" || (unescapesBackslash && ch === "\\")) {
        out.pop();
        out[out.length - 1] = ch;
      }
      escaped = false;
      continue;
    }
    if (ch === "\\") {
      escaped = true;
      continue;
    }
    if (ch === "%") {
      out.pop();
      return { command: out.join(""), rest: field.slice(i + 1) };
    }
  }
  return { command: out.join(""), rest: "" };
}

/** The second loop, run only when text follows the `%`. */
function stdinOf(rest: string): string {
  if (rest === "") return "";
  let out = "";
  let escaped = false;
  let needNewline = false;
  for (let ch of rest) {
    if (escaped) {
      if (ch !== "%") out += "\\";
    } else if (ch === "%") {
      ch = "\n";
    }
    escaped = ch === "\\";
    if (!escaped) {
      out += ch;
      needNewline = ch !== "\n";
    }
  }
  if (escaped) out += "\\";
  if (needNewline) out += "\n";
  return out;
}

const decoder =
  (unescapesBackslash: boolean): CronDecoder =>
  (field) => {
    const { command, rest } = splitCommand(field, unescapesBackslash);
    return { command, stdin: stdinOf(rest) };
  };

export const debianCron = decoder(true);
export const cronie = decoder(false);
export const vixieCron41 = decoder(false);

export const CRONS: [string, CronDecoder][] = [
  ["Debian cron 3.0pl1", debianCron],
  ["cronie", cronie],
  ["vixie-cron 4.1", vixieCron41],
];

/** What `IFS= read -r v` sets `v` to: the first line, or all of it when there is no newline. */
export function readLine(stdin: string): string {
  const end = stdin.indexOf("\n");
  return end === -1 ? stdin : stdin.slice(0, end);
}
