/**
 * The command field's prefix when the command travels on the job's stdin (see
 * {@link escapeCronCommand}): `read` and `eval` are shell built-ins, so this needs nothing but the
 * POSIX shell cron starts. `IFS=` and `-r` keep the line as it is; `read` still sets the variable
 * when the line lacks its newline; `unset` leaves no trace of the variable in the command's shell.
 */
export const STDIN_COMMAND = 'IFS= read -r tend_command; eval "unset tend_command; $tend_command"';

/**
 * Writes a command as a cron line's command field so that the shell receives it byte for byte
 * under each cron tend supports. How each decodes the field (`child_process()` in do_command.c):
 *
 * - Debian's cron 3.0pl1 (debian/patches/fixes/Handle-escapes-in-job-input.patch): `\%` becomes
 *   `%`, `\\` becomes `\`, any other backslash stays, with the character after it.
 * - cronie (src/do_command.c) and vixie-cron 4.1: `\%` becomes `%`; any other backslash stays,
 *   with the character after it, so `\\` stays `\\`.
 * - In all three the first `%` left bare ends the command. The rest is the job's stdin, through a
 *   second loop that is the same in all three: a `%` after a backslash is a `%` and loses the
 *   backslash, any other `%` a newline, every other backslash stays; a newline is added at the end.
 *
 * So a command without `\\` or `\%` is written in-line with each `%` as `\%`, which all three read
 * alike. A command holding either has no such form (Debian halves a run of backslashes, cronie
 * keeps it, and cronie cannot put a backslash right before a `%`), so it goes on stdin instead,
 * after {@link STDIN_COMMAND} and a bare `%`, each of its `%` as `\%`: the stdin loop hands it over
 * exactly. (An env line would not do: Debian's parser trims and unquotes values, and in a user's
 * crontab the variable would reach every job after it.)
 */
export function escapeCronCommand(command: string): string {
  const escaped = command.replace(/%/g, "\\%");
  return /\\[\\%]/.test(command) ? `${STDIN_COMMAND}%${escaped}` : escaped;
}
