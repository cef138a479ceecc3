import type { Schedule } from "@tend/core/contract";

/** systemd's week starts on Monday: `Sun..Tue` wraps, and is invalid. Indexed by cron's day (0 = Sunday). */
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONDAY_FIRST = (day: number) => (day + 6) % 7;

/**
 * A parsed cron schedule as an `OnCalendar=` expression (`DOW YYYY-MM-DD HH:MM:SS`), firing at
 * exactly the same minutes.
 *
 * Built from the expanded values, never from the cron text, because systemd's grammar differs:
 * a step after `*` is invalid (steps are written `start/N` or `start..end/N`), month names are not
 * accepted, a weekday range may not wrap (`Sun..Tue`: its week starts on Monday), and systemd's `weekly` is Monday while
 * cron's `@weekly` is Sunday. Day-of-month and day-of-week are both written when both are
 * restricted in values; systemd ANDs them, which is cron's rule whenever one of the two is
 * written with `*` (parseSchedule refuses the case where cron would OR them).
 */
export function toOnCalendar(schedule: Schedule): string {
  const days = schedule.dayOfWeek.values;
  const weekday = days.length === 7 ? "" : `${formatWeekdays(days)} `;
  const month = formatField(schedule.month.values, 1, 12);
  const day = formatField(schedule.dayOfMonth.values, 1, 31);
  const hour = formatField(schedule.hour.values, 0, 23);
  const minute = formatField(schedule.minute.values, 0, 59);
  return `${weekday}*-${month}-${day} ${hour}:${minute}:00`;
}

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

/**
 * One numeric component: `*` when every value is in, `first..last/step` for a progression (never
 * the open `first/step`: systemd 252 skips the first firing of a new year with it, `00/5` hours
 * going from Dec 31 20:00 to Jan 1 05:00, which the property test found), else runs (`09..17`)
 * and single values joined by commas.
 */
function formatField(values: readonly number[], min: number, max: number): string {
  if (values.length === max - min + 1) return "*";
  const step = values.length >= 3 ? values[1]! - values[0]! : 0;
  const progression = step > 1 && values.every((value, i) => i === 0 || value - values[i - 1]! === step);
  if (progression) return `${pad(values[0]!)}..${pad(values[values.length - 1]!)}/${step}`;
  return runs(values).map(([from, to]) => (from === to ? pad(from) : to === from + 1 ? `${pad(from)},${pad(to)}` : `${pad(from)}..${pad(to)}`)).join(",");
}

/** Weekdays as names in systemd's order: runs of three or more as `Mon..Fri` or `Fri..Sun`. */
function formatWeekdays(values: readonly number[]): string {
  const name = (position: number) => WEEKDAYS[(position + 1) % 7]!;
  const positions = values.map(MONDAY_FIRST).sort((a, b) => a - b);
  return runs(positions).map(([from, to]) => (from === to ? name(from) : to === from + 1 ? `${name(from)},${name(to)}` : `${name(from)}..${name(to)}`)).join(",");
}

/** Sorted distinct values as [from, to] runs of consecutive numbers. */
function runs(values: readonly number[]): [number, number][] {
  const found: [number, number][] = [];
  for (const value of values) {
    const last = found[found.length - 1];
    if (last && value === last[1] + 1) last[1] = value;
    else found.push([value, value]);
  }
  return found;
}
