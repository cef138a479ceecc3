import { nextFirings, parseSchedule, TendError, type Schedule } from "@tend/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { calendarEntryCount, calendarIntervals, type CalendarInterval } from "./calendar-intervals.js";

// Calendar arithmetic below is in local time, as launchd and cron use; UTC keeps DST out of it.
process.env.TZ = "UTC";

const expand = (schedule: string) => calendarIntervals(parseSchedule(schedule));

describe("calendarIntervals: exact entries", () => {
  it.each([
    ["30 2 * * *", [{ Hour: 2, Minute: 30 }]],
    ["@hourly", [{ Minute: 0 }]],
    ["@daily", [{ Hour: 0, Minute: 0 }]],
    ["@weekly", [{ Weekday: 0, Hour: 0, Minute: 0 }]],
    ["@monthly", [{ Day: 1, Hour: 0, Minute: 0 }]],
    ["*/15 * * * *", [{ Minute: 0 }, { Minute: 15 }, { Minute: 30 }, { Minute: 45 }]],
    ["0 0 * * 7", [{ Weekday: 0, Hour: 0, Minute: 0 }]],
    ["0 0 * * 5-7", [0, 5, 6].map((Weekday) => ({ Weekday, Hour: 0, Minute: 0 }))],
    ["0 0 * * sun,sat", [0, 6].map((Weekday) => ({ Weekday, Hour: 0, Minute: 0 }))],
    ["0 0 1,15 * *", [1, 15].map((Day) => ({ Day, Hour: 0, Minute: 0 }))],
    ["0 0 * jan,jul *", [1, 7].map((Month) => ({ Month, Hour: 0, Minute: 0 }))],
    ["0 12 1 */6 *", [1, 7].map((Month) => ({ Month, Day: 1, Hour: 12, Minute: 0 }))],
    ["0-30/10 8 * * 1", [0, 10, 20, 30].map((Minute) => ({ Weekday: 1, Hour: 8, Minute }))],
    ["* * * * *", [{}]],
    ["0-59 0-23 * 1-12 0-7", [{}]],
  ] as [string, CalendarInterval[]][])("%s", (schedule, entries) => {
    expect(expand(schedule)).toEqual(entries);
    expect(calendarEntryCount(parseSchedule(schedule))).toBe(entries.length);
  });

  it("0 9-17 * * 1-5: 45 entries, weekday major, then hour", () => {
    const entries = expand("0 9-17 * * 1-5");
    expect(entries).toHaveLength(45);
    expect(entries[0]).toEqual({ Weekday: 1, Hour: 9, Minute: 0 });
    expect(entries[8]).toEqual({ Weekday: 1, Hour: 17, Minute: 0 });
    expect(entries[9]).toEqual({ Weekday: 2, Hour: 9, Minute: 0 });
    expect(entries[44]).toEqual({ Weekday: 5, Hour: 17, Minute: 0 });
  });

  it.each([
    ["*/6 9-15 * * *", 70],
    ["*/15 9-17 * * 1-5", 180],
    ["0,30 * * * *", 2],
    ["0 0 */2 * *", 16],
    ["0 * * * 1-5", 5],
  ])("%s counts %i entries", (schedule, count) => {
    expect(calendarEntryCount(parseSchedule(schedule))).toBe(count);
    expect(expand(schedule)).toHaveLength(count);
  });

  it("refuses a day-of-month and a day-of-week that cron ANDs and launchd would OR", () => {
    const thrown = (() => {
      try {
        expand("0 0 */2 * 1-5");
      } catch (error) {
        return error;
      }
    })();
    expect(TendError.isInstance(thrown) && thrown.code).toBe("TEND_SCHEDULE_FIELD");
    expect((thrown as Error).message).toBe(
      "schedule `0 0 */2 * 1-5` has a bad day-of-week field: cron runs it only on days matching both `*/2` and `1-5` (one of them starts with `*`), and launchd on days matching either; restrict only one of them",
    );
  });
});

/** launchd's reading of a calendar array: an entry matches when every key it has matches. */
function firingsOf(entries: CalendarInterval[], after: Date, until: Date): number[] {
  const found = new Set<number>();
  const day = new Date(after.getTime());
  day.setHours(0, 0, 0, 0);
  for (; day.getTime() <= until.getTime(); day.setDate(day.getDate() + 1)) {
    for (const entry of entries) {
      if (entry.Month !== undefined && entry.Month !== day.getMonth() + 1) continue;
      const dayMatch = entry.Day === undefined || entry.Day === day.getDate();
      const weekdayMatch = entry.Weekday === undefined || entry.Weekday === day.getDay();
      // launchd.plist(5): with both keys, either matching fires (the expansion never writes both).
      if (entry.Day !== undefined && entry.Weekday !== undefined ? !(dayMatch || weekdayMatch) : !(dayMatch && weekdayMatch)) continue;
      const hours = entry.Hour === undefined ? [...Array(24).keys()] : [entry.Hour];
      const minutes = entry.Minute === undefined ? [...Array(60).keys()] : [entry.Minute];
      for (const hour of hours) {
        for (const minute of minutes) {
          const time = new Date(day.getTime());
          time.setHours(hour, minute, 0, 0);
          if (time.getTime() > after.getTime() && time.getTime() <= until.getTime()) found.add(time.getTime());
        }
      }
    }
  }
  return [...found].sort((a, b) => a - b);
}

function cronField(min: number, max: number): fc.Arbitrary<string> {
  const value = fc.integer({ min, max });
  const range = fc.tuple(value, value).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`);
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant("*") },
    { weight: 3, arbitrary: value.map(String) },
    { weight: 2, arbitrary: range },
    { weight: 2, arbitrary: fc.uniqueArray(value, { minLength: 2, maxLength: 4 }).map((v) => v.join(",")) },
    { weight: 2, arbitrary: fc.integer({ min: 1, max: max - min + 1 }).map((step) => `*/${step}`) },
    { weight: 1, arbitrary: fc.tuple(range, fc.integer({ min: 1, max: 5 })).map(([r, step]) => `${r}/${step}`) },
  );
}

const schedules = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom("@hourly", "@daily", "@weekly", "@monthly") },
  {
    weight: 9,
    arbitrary: fc
      .tuple(cronField(0, 59), cronField(0, 23), cronField(1, 31), cronField(1, 12), cronField(0, 7))
      .map((fields) => fields.join(" ")),
  },
);

/** The schedule, when launchd can take it within the cap (the rest is `check`'s business). */
function expressible(source: string): Schedule | undefined {
  try {
    const schedule = parseSchedule(source);
    return calendarEntryCount(schedule) <= 64 ? schedule : undefined;
  } catch (error) {
    if (TendError.isInstance(error)) return undefined;
    throw error;
  }
}

describe("calendarIntervals against nextFirings (cron's own semantics)", () => {
  it("fires at exactly the minutes cron fires at, over a window of 40 firings", () => {
    fc.assert(
      fc.property(schedules, fc.date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2030-12-31T00:00:00Z"), noInvalidDate: true }), (source, start) => {
        const schedule = expressible(source);
        fc.pre(schedule !== undefined);
        const expected = nextFirings(schedule!, start, 40).map((d) => d.getTime());
        fc.pre(expected.length > 0);
        const until = new Date(expected[expected.length - 1]!);
        expect(firingsOf(calendarIntervals(schedule!), start, until)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe("every minute", () => {
  it("`* * * * *` is one empty entry, which fires at the top of every minute as cron does (not every 60 s from load)", () => {
    const schedule = parseSchedule("* * * * *");
    const start = new Date("2026-03-01T10:15:42Z");
    const expected = nextFirings(schedule, start, 5).map((d) => d.getTime());
    expect(expected[0]).toBe(new Date("2026-03-01T10:16:00Z").getTime());
    expect(calendarIntervals(schedule)).toEqual([{}]);
    expect(firingsOf(calendarIntervals(schedule), start, new Date(expected[4]!))).toEqual(expected);
  });
});
