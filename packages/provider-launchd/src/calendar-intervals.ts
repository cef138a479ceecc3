import { errors, type Schedule } from "@tend/core/contract";

/** One `StartCalendarInterval` dictionary: a key left out matches every value. */
export type CalendarInterval = Partial<Record<CalendarKey, number>>;
type CalendarKey = "Month" | "Day" | "Weekday" | "Hour" | "Minute";

/** The cap the seed sets on `StartCalendarInterval` entries. */
export const MAX_CALENDAR_ENTRIES = 64;

/** launchd's key for each cron field, coarse to fine, with how many values the field has. */
const KEYS: { key: CalendarKey; field: keyof Pick<Schedule, "month" | "dayOfMonth" | "dayOfWeek" | "hour" | "minute">; size: number }[] = [
  { key: "Month", field: "month", size: 12 },
  { key: "Day", field: "dayOfMonth", size: 31 },
  { key: "Weekday", field: "dayOfWeek", size: 7 },
  { key: "Hour", field: "hour", size: 24 },
  { key: "Minute", field: "minute", size: 60 },
];

interface RestrictedField {
  key: CalendarKey;
  values: number[];
}

/**
 * The fields a schedule restricts, each as its launchd key and value set; a field that matches
 * every value (`*`, `*\/1`, `0-59`, `0-7`) is left out, as launchd treats a missing key.
 *
 * A dictionary holding both `Day` and `Weekday` fires when either matches (launchd.plist(5)).
 * parseSchedule already refuses the schedules where cron does the same (both fields restricted
 * and neither starting with `*`); the rest (`0 0 *\/2 * 1-5`) cron runs only when both match,
 * which launchd cannot express, so they are refused here rather than silently widened.
 */
export function restrictedFields(schedule: Schedule): RestrictedField[] {
  const fields = KEYS.filter(({ field, size }) => schedule[field].values.length < size).map(({ key, field }) => ({
    key,
    values: schedule[field].values,
  }));
  if (fields.some((f) => f.key === "Day") && fields.some((f) => f.key === "Weekday")) {
    throw errors.scheduleField(
      schedule.source,
      "day-of-week",
      `cron runs it only on days matching both \`${schedule.dayOfMonth.text}\` and \`${schedule.dayOfWeek.text}\` (one of them starts with \`*\`), and launchd on days matching either; restrict only one of them`,
    );
  }
  return fields;
}

/** How many `StartCalendarInterval` dictionaries the schedule needs (the product of the restricted fields). */
export function calendarEntryCount(schedule: Schedule): number {
  return restrictedFields(schedule).reduce((count, field) => count * field.values.length, 1);
}

/**
 * One dictionary per combination of listed values: the cartesian product of the restricted
 * fields, in ascending order (`*\/15 * * * *` gives four `{Minute}` entries; `* * * * *` one empty
 * dictionary). Day-of-week is already folded to 0-6 by parseSchedule (7 is Sunday, 0).
 */
export function calendarIntervals(schedule: Schedule): CalendarInterval[] {
  let entries: CalendarInterval[] = [{}];
  for (const { key, values } of restrictedFields(schedule)) {
    entries = entries.flatMap((entry) => values.map((value) => ({ ...entry, [key]: value })));
  }
  return entries;
}
