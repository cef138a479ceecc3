import { nextFirings, parseSchedule } from "@tend/core";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calendarFirings } from "./__testing__/systemd-calendar.js";
import { toOnCalendar } from "./on-calendar.js";

const convert = (schedule: string) => toOnCalendar(parseSchedule(schedule));

describe("toOnCalendar", () => {
  it.each([
    ["30 2 * * *", "*-*-* 02:30:00"],
    ["*/10 * * * *", "*-*-* *:00..50/10:00"],
    ["0-30/5 * * * *", "*-*-* *:00..30/5:00"],
    ["0 9-17 * * 1-5", "Mon..Fri *-*-* 09..17:00:00"],
    ["0 0 1,15 * *", "*-*-01,15 00:00:00"],
    ["0 0 * jan,jul *", "*-01,07-* 00:00:00"],
    ["0 0 * * 0", "Sun *-*-* 00:00:00"],
    ["0 0 * * 7", "Sun *-*-* 00:00:00"],
    ["0 0 * * 5-7", "Fri..Sun *-*-* 00:00:00"],
    ["0 0 * * 0-2", "Mon,Tue,Sun *-*-* 00:00:00"],
    ["0 0 * * */2", "Tue,Thu,Sat,Sun *-*-* 00:00:00"],
    ["0 0 */2 * *", "*-*-01..31/2 00:00:00"],
    ["0 12 * * mon,wed", "Mon,Wed *-*-* 12:00:00"],
    ["5,10,15,40 */6 * * *", "*-*-* 00..18/6:05,10,15,40:00"],
    ["@hourly", "*-*-* *:00:00"],
    ["@daily", "*-*-* 00:00:00"],
    ["@weekly", "Sun *-*-* 00:00:00"],
    ["@monthly", "*-*-01 00:00:00"],
  ])("converts `%s` to `%s`", (schedule, onCalendar) => {
    expect(convert(schedule)).toBe(onCalendar);
  });

  it("fails with the seed's texts for @yearly and for day-of-month with day-of-week", () => {
    expect(() => convert("@yearly")).toThrow("schedule `@yearly` is not supported, use @hourly, @daily, @weekly, @monthly or five cron fields");
    expect(() => convert("0 0 1 * 1")).toThrow(
      "schedule `0 0 1 * 1` restricts both day-of-month and day-of-week; cron runs on either, and no init here can express that",
    );
  });
});

/** A cron field: `*`, `*​/n`, a value, a range, a stepped range, or a list of them. */
function field(min: number, max: number, names: string[] = []) {
  const value = fc.integer({ min, max });
  const named = names.length > 0 ? fc.oneof(value.map(String), fc.constantFrom(...names)) : value.map(String);
  const range = fc.tuple(value, value).map(([a, b]): [number, number] => (a <= b ? [a, b] : [b, a]));
  const item = fc.oneof(
    named,
    range.map(([a, b]) => `${a}-${b}`),
    fc.tuple(range, fc.integer({ min: 1, max: 12 })).map(([[a, b], step]) => `${a}-${b}/${Math.min(step, b - a + 1)}`),
  );
  return fc.oneof(
    { arbitrary: fc.constant("*"), weight: 3 },
    { arbitrary: fc.integer({ min: 1, max: 20 }).map((step) => `*/${Math.min(step, max - min + 1)}`), weight: 1 },
    { arbitrary: fc.array(item, { minLength: 1, maxLength: 3 }).map((items) => items.join(",")), weight: 2 },
  );
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

const schedules = fc.oneof(
  { arbitrary: fc.constantFrom("@hourly", "@daily", "@weekly", "@monthly"), weight: 1 },
  {
    arbitrary: fc
      .tuple(field(0, 59), field(0, 23), field(1, 31), field(1, 12, MONTHS), field(0, 7, DAYS))
      .map((fields) => fields.join(" ")),
    weight: 12,
  },
);

describe("toOnCalendar fires when cron would (systemd-analyze calendar as the oracle)", () => {
  const tz = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = "UTC";
  });
  afterAll(() => {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  });

  it("gives the same next firings as the cron expression, for random schedules", async () => {
    const ITERATIONS = 6;
    const HORIZON_MS = 8 * 366 * 24 * 3600 * 1000; // nextFirings looks this far ahead
    const cases = fc.tuple(
      fc.array(schedules, { minLength: 20, maxLength: 20 }),
      fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2040-01-01T00:00:00Z"), noInvalidDate: true }),
    );
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(cases, async ([sources, base]) => {
        const parsed = sources.flatMap((source) => {
          try {
            return [parseSchedule(source)];
          } catch {
            return [];
          }
        });
        fc.pre(parsed.length > 0);
        const theirs = await calendarFirings(parsed.map(toOnCalendar), base, ITERATIONS);
        parsed.forEach((schedule, i) => {
          const ours = nextFirings(schedule, base, ITERATIONS);
          const label = `${schedule.source} -> ${toOnCalendar(schedule)} after ${base.toISOString()}`;
          expect(ours.map((d) => d.toISOString()), label).toEqual(theirs[i]!.slice(0, ours.length).map((d) => d.toISOString()));
          // nextFirings stops at its horizon (Feb 29 comes every four years); systemd does not
          if (ours.length < ITERATIONS) expect(theirs[i]![ours.length]?.getTime() ?? Infinity, label).toBeGreaterThan(base.getTime() + HORIZON_MS - 60_000);
          compared += 1;
        });
      }),
      { numRuns: 60 },
    );
    expect(compared).toBeGreaterThan(500);
  });
});
