/**
 * Escapes a command for the command field of a cron line. Cron cuts the command at the first
 * bare `%` (the rest becomes the job's stdin, each further `%` a newline) and, before that, turns
 * `\%` into `%` and `\\` into `\`, leaving any other backslash alone (Debian cron 3.0pl1, checked
 * against the daemon). Doubling every backslash and escaping every `%` is therefore exact: the
 * shell receives the command byte for byte.
 */
export function escapeCronCommand(command: string): string {
  return command.replace(/[\\%]/g, (ch) => `\\${ch}`);
}
