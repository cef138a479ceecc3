import { errors, type RenderContext, type Resource, type TendError } from "@tend/core/contract";

/** What Debian cron (run-parts rules) reads in /etc/cron.d names; cronie reads more, Debian less. */
const CRON_NAME_CHAR = /[A-Za-z0-9_-]/;

/**
 * The cron-only rules for a timer, run at plan time. The name must be one Debian cron reads in
 * /etc/cron.d (letters, digits, `_`, `-`): a `.` gets the seed's text, any other character
 * (the seed's name rule also allows `@`) the same message naming it. Applied to user timers too:
 * the seed forbids `.` for every timer on a cron host, and a timer should not become unusable when
 * it moves between the system and a user's crontab. Schedules are checked with the spec, by the
 * core, for every init.
 */
export function checkTimer(resource: Resource, _ctx?: RenderContext): TendError[] {
  if (resource.type !== "timer") return [];
  const found: TendError[] = [];
  if (resource.name.includes(".")) {
    found.push(errors.timerNameDot(resource.name));
  } else {
    const bad = [...resource.name].find((ch) => !CRON_NAME_CHAR.test(ch));
    if (bad !== undefined) found.push(errors.timerNameCron(resource.name, bad));
  }
  return found;
}
