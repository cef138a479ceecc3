import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { clockGaps, clockText as clock, dayText, type ClockGap } from "./clock-gaps.js";

const run = promisify(execFile);
const YEAR_2027 = new Date(Date.UTC(2027, 0, 1));

describe("clockGaps", () => {
  it("finds the day each zone skips an hour (or half an hour) in a year, and no other", () => {
    expect(clockGaps("Europe/Berlin", YEAR_2027, 366)).toEqual([{ year: 2027, month: 3, day: 28, weekday: 0, from: 120, to: 180 }]);
    expect(clockGaps("America/New_York", YEAR_2027, 366)).toEqual([{ year: 2027, month: 3, day: 14, weekday: 0, from: 120, to: 180 }]);
    // Lord Howe Island moves its clocks by half an hour
    expect(clockGaps("Australia/Lord_Howe", YEAR_2027, 366)).toEqual([{ year: 2027, month: 10, day: 3, weekday: 0, from: 120, to: 150 }]);
    expect(clockGaps("Pacific/Chatham", YEAR_2027, 366)).toEqual([{ year: 2027, month: 9, day: 26, weekday: 0, from: 165, to: 225 }]);
    expect(clockGaps("Asia/Kolkata", YEAR_2027, 366)).toEqual([]);
    expect(clockGaps("UTC", YEAR_2027, 366)).toEqual([]);
    expect(clockGaps("Nowhere/Town", YEAR_2027, 366)).toEqual([]);
    // only the days asked for
    expect(clockGaps("Europe/Berlin", YEAR_2027, 30)).toEqual([]);
  });

  // systemd's calendar, run in each zone from the system's own zone files, is the oracle. Not for
  // Pacific/Chatham (02:45 to 03:45): systemd 252 reports an infinite loop for a time in its gap.
  it.each(["Europe/Berlin", "America/New_York", "America/Santiago", "Australia/Lord_Howe", "Asia/Beirut"])(
    "agrees with systemd's calendar in %s: no run that day at a time in the gap, one just after it",
    async (zone) => {
      const gaps = clockGaps(zone, YEAR_2027, 366);
      expect(gaps.length).toBeGreaterThan(0);
      for (const gap of gaps) {
        const date = dayText(gap);
        const [inGap, after] = await firstRunDates(zone, gap, [gap.from, gap.to]);
        expect(inGap, `${zone} ${date} ${clock(gap.from)}`).not.toBe(date);
        if (gap.to < 24 * 60) expect(after, `${zone} ${date} ${clock(gap.to)}`).toBe(date);
      }
    },
  );
});

/** The local date of the first run of `*-*-* HH:MM:00` in the zone after noon of the day before the gap, for each minute. */
async function firstRunDates(zone: string, gap: ClockGap, minutes: number[]): Promise<string[]> {
  const before = new Date(Date.UTC(gap.year, gap.month - 1, gap.day - 1));
  const base = `${dayText({ year: before.getUTCFullYear(), month: before.getUTCMonth() + 1, day: before.getUTCDate() })} 12:00:00`;
  const { stdout } = await run("systemd-analyze", ["calendar", `--base-time=${base}`, "--", ...minutes.map((m) => `*-*-* ${clock(m)}:00`)], { env: { ...process.env, TZ: zone } });
  return [...stdout.matchAll(/Next elapse: \w+ (\d{4}-\d\d-\d\d) /g)].map((m) => m[1]!);
}
