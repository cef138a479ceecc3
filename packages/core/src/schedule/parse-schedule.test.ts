import { describe, expect, it } from "vitest";
import { parseSchedule } from "./parse-schedule.js";
import { nextFirings } from "./next-firings.js";

describe("parseSchedule", () => {
  it("expands numbers, ranges, lists, steps and names", () => {
    const s = parseSchedule("0-30/10 9-17 * jan,JUL mon-fri");
    expect(s.minute.values).toEqual([0, 10, 20, 30]);
    expect(s.hour.values).toEqual([9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect(s.month.values).toEqual([1, 7]);
    expect(s.dayOfWeek.values).toEqual([1, 2, 3, 4, 5]);
    expect(parseSchedule("0 0 * * 7").dayOfWeek.values).toEqual([0]);
    expect(parseSchedule("*/15 * * * *").minute.values).toEqual([0, 15, 30, 45]);
  });

  it("maps the four keywords", () => {
    expect(parseSchedule("@weekly").dayOfWeek.values).toEqual([0]);
    expect(parseSchedule("@monthly").dayOfMonth.values).toEqual([1]);
    expect(parseSchedule("@hourly").minute.values).toEqual([0]);
  });

  it("refuses what the seed refuses, in its words", () => {
    expect(() => parseSchedule("0 0 1 * 1")).toThrow(
      "schedule `0 0 1 * 1` restricts both day-of-month and day-of-week; cron runs on either, and no init here can express that",
    );
    expect(() => parseSchedule("@yearly")).toThrow("schedule `@yearly` is not supported, use @hourly, @daily, @weekly, @monthly or five cron fields");
  });

  it.each(["*/0 * * * *", "60 * * * *", "*/90 * * * *", "0 0 31 2 *", "* * * * * *", "5/15 * * * *", "1-0 * * * *", "a * * * *", "1,,2 * * * *"])(
    "refuses %s naming the field",
    (text) => {
      expect(() => parseSchedule(text)).toThrow(/schedule `.*` (has a bad|restricts|is not)/);
    },
  );

  it("separates fields by spaces and tabs, and trims only those", () => {
    expect(parseSchedule(" \t30\t2 *  * mon-fri \t").hour.values).toEqual([2]);
    expect(parseSchedule("\t@daily ").keyword).toBe("@daily");
  });

  it.each([
    ["U+00A0", "0\u00a00 * * *"],
    ["U+00A0", "0 0 * * *\u00a0"],
    ["U+00A0", "\u00a0@daily"],
    ["U+2003", "@daily\u2003"],
    ["U+2009", "0\u20090 * * *"],
    ["U+3000", "0 0\u3000* * *"],
    ["U+200B", "0 0 * *\u200b*"],
    ["U+FEFF", "\ufeff0 0 * * *"],
    ["U+000B", "0 0 * * *\u000b"],
    ["U+2028", "0 0 * *\u2028*"],
  ])("refuses %s as a separator or around the fields (%j)", (codePoint, text) => {
    let thrown: unknown;
    try {
      parseSchedule(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({
      code: "TEND_SCHEDULE_FIELD",
      message: `schedule \`${text}\` has a bad whole field: only spaces and tabs separate fields, and it holds ${codePoint}`,
    });
  });

  it("allows a starred day field with the other restricted (cron ANDs them then)", () => {
    expect(parseSchedule("0 0 */2 * 1").dayOfMonth.star).toBe(true);
  });
});

describe("nextFirings", () => {
  it("finds the next runs of a schedule", () => {
    const base = new Date(2026, 0, 1, 0, 0);
    const runs = nextFirings(parseSchedule("30 2 * * *"), base, 2);
    expect(runs.map((d) => [d.getDate(), d.getHours(), d.getMinutes()])).toEqual([
      [1, 2, 30],
      [2, 2, 30],
    ]);
    const weekly = nextFirings(parseSchedule("@weekly"), base, 1)[0]!;
    expect(weekly.getDay()).toBe(0);
  });
});
