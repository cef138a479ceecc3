import type { Schedule } from "./parse-schedule.js";

/**
 * The next `count` times (local time, whole minutes) strictly after `after` at which cron would
 * run the schedule. The oracle that the systemd and launchd conversions are tested against.
 */
export function nextFirings(schedule: Schedule, after: Date, count: number): Date[] {
  const found: Date[] = [];
  const cursor = new Date(after.getTime());
  cursor.setSeconds(0, 0);
  cursor.setMinutes(cursor.getMinutes() + 1);
  const limit = after.getTime() + 8 * 366 * 24 * 3600 * 1000;
  const minutes = new Set(schedule.minute.values);
  const hours = new Set(schedule.hour.values);
  while (found.length < count && cursor.getTime() < limit) {
    if (!matchesDay(schedule, cursor)) {
      cursor.setDate(cursor.getDate() + 1);
      cursor.setHours(0, 0, 0, 0);
      continue;
    }
    if (!hours.has(cursor.getHours())) {
      cursor.setHours(cursor.getHours() + 1, 0, 0, 0);
      continue;
    }
    if (minutes.has(cursor.getMinutes())) found.push(new Date(cursor.getTime()));
    cursor.setMinutes(cursor.getMinutes() + 1, 0, 0);
  }
  return found;
}

function matchesDay(schedule: Schedule, day: Date): boolean {
  return matchesDate(schedule, { month: day.getMonth() + 1, day: day.getDate(), weekday: day.getDay() });
}

/** Whether cron runs the schedule on a date (`month` 1–12, `weekday` 0 = Sunday) at all. */
export function matchesDate(schedule: Schedule, date: { month: number; day: number; weekday: number }): boolean {
  if (!schedule.month.values.includes(date.month)) return false;
  const dom = schedule.dayOfMonth.values.includes(date.day);
  const dow = schedule.dayOfWeek.values.includes(date.weekday);
  // cron: when either day field is unrestricted (starts with `*`) both must match, else either.
  return schedule.dayOfMonth.star || schedule.dayOfWeek.star ? dom && dow : dom || dow;
}
