import { shellQuote, type Timer } from "@tend/core/contract";
import { escapeCronCommand } from "./escape-cron-command.js";

/**
 * The command field of a timer's cron line: the `exec` as written, run by cron through
 * `/bin/sh -c`, with the timer's `env` exported first (`export K='v'; exec`), all written for cron
 * by {@link escapeCronCommand} (in-line, or on the job's stdin when no in-line form is exact).
 *
 * Env goes into the command rather than onto `K=v` lines: in a user's crontab such a line applies
 * to every line after it, so it would leak into the user's own jobs; and Debian cron trims values,
 * drops trailing blanks even inside quotes and ignores the whole file over a value such as `it's`.
 * A single-quoted shell word carries any one-line value exactly.
 */
export function cronCommand(timer: Pick<Timer, "exec" | "env">): string {
  const assignments = Object.entries(timer.env ?? {}).map(([name, value]) => `${name}=${shellQuote(value)}`);
  const script = assignments.length > 0 ? `export ${assignments.join(" ")}; ${timer.exec}` : timer.exec;
  return escapeCronCommand(script);
}
