import { describe, expect, it } from "vitest";
import { parseSchedule } from "../schedule/parse-schedule.js";
import { clockGapWarning } from "./clock-gap-warning.js";

// Berlin, 2027-03-28 (a Sunday): 02:00 to 03:00 does not happen.
const BERLIN = [{ year: 2027, month: 3, day: 28, weekday: 0, from: 120, to: 180 }];

describe("clockGapWarning", () => {
  it("says when a timer's time is skipped, and what the init does then", () => {
    const at = parseSchedule("30 2 * * *");
    expect(clockGapWarning(at, BERLIN, "Europe/Berlin", "systemd", "skip")).toBe(
      "runs at 02:30, a time Europe/Berlin skips on 2027-03-28 (clocks go from 02:00 to 03:00): systemd does not run it that day; pick a time outside 02:00–03:00 to run it at its time every day",
    );
    expect(clockGapWarning(at, BERLIN, "Europe/Berlin", "cron", "run-after")).toContain(": cron runs it right after the jump, at 03:00;");
    expect(clockGapWarning(at, BERLIN, "Europe/Berlin", "launchd", undefined)).toContain(": what launchd does then is not known;");
  });

  it("names the first of its times in the gap, on a day it runs", () => {
    expect(clockGapWarning(parseSchedule("10,40 1-3 * * *"), BERLIN, "Europe/Berlin", "systemd", "skip")).toMatch(/^runs at 02:10, /);
    expect(clockGapWarning(parseSchedule("0 2 * mar sun"), BERLIN, "Europe/Berlin", "systemd", "skip")).toMatch(/^runs at 02:00, /);
    expect(clockGapWarning(parseSchedule("0 0 1 * *"), [{ year: 2027, month: 9, day: 5, weekday: 0, from: 0, to: 60 }], "America/Santiago", "cron", "run-after")).toBeUndefined();
    expect(clockGapWarning(parseSchedule("@daily"), [{ year: 2027, month: 9, day: 5, weekday: 0, from: 0, to: 60 }], "America/Santiago", "cron", "run-after")).toMatch(/^runs at 00:00, a time America\/Santiago skips on 2027-09-05 \(clocks go from 00:00 to 01:00\)/);
  });

  it("keeps quiet for a time outside the gap, a day it does not run, or no set hour", () => {
    expect(clockGapWarning(parseSchedule("30 3 * * *"), BERLIN, "Europe/Berlin", "systemd", "skip")).toBeUndefined();
    expect(clockGapWarning(parseSchedule("30 2 * * 1-5"), BERLIN, "Europe/Berlin", "systemd", "skip")).toBeUndefined();
    expect(clockGapWarning(parseSchedule("30 2 * 4-12 *"), BERLIN, "Europe/Berlin", "systemd", "skip")).toBeUndefined();
    // wildcards are not times of day (cron(8) runs them by the clock, and skips the gap's runs)
    expect(clockGapWarning(parseSchedule("30 * * * *"), BERLIN, "Europe/Berlin", "systemd", "skip")).toBeUndefined();
    expect(clockGapWarning(parseSchedule("*/5 2 * * *"), BERLIN, "Europe/Berlin", "cron", "run-after")).toBeUndefined();
  });
});
