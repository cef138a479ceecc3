import type { Timer } from "@tend/core";
import { describe, expect, it } from "vitest";
import { checkTimer } from "./check-timer.js";

const timer = (fields: Partial<Timer>): Timer => ({ type: "timer", name: "backup", exec: "/bin/true", schedule: "30 2 * * *", ...fields });
const messages = (t: Timer) => checkTimer(t).map((e) => e.message);

describe("checkTimer", () => {
  it("accepts names cron reads and the schedules the seed allows", () => {
    for (const name of ["backup", "gc", "a_b-c", "X9"]) expect(messages(timer({ name }))).toEqual([]);
    for (const schedule of ["@hourly", "@daily", "@weekly", "@monthly", "*/10 * * * *", "0-30/5 1,15 * jan-jun mon", "0 0 1 * *", "0 0 * * 1-5"]) {
      expect(messages(timer({ schedule }))).toEqual([]);
    }
  });

  it("refuses a `.` with the seed's text", () => {
    const [error, ...rest] = checkTimer(timer({ name: "backup.daily" }));
    expect(rest).toEqual([]);
    expect(error?.message).toBe("timer name `backup.daily` holds a `.`, which cron ignores in /etc/cron.d file names");
    expect(error?.hint).toBe("Rename the timer");
    expect(error?.code).toBe("TEND_TIMER_NAME");
    expect(error?.location).toMatchObject({ field: "name", resource: "timer:backup.daily" });
  });

  it("refuses `@`, which the seed's name rule allows but Debian cron ignores", () => {
    expect(messages(timer({ name: "sync@alice" }))).toEqual(["timer name `sync@alice` holds a `@`, which cron ignores in /etc/cron.d file names"]);
  });

  it("gives the seed's `.` text when a name holds both", () => {
    expect(messages(timer({ name: "a@b.c" }))).toEqual(["timer name `a@b.c` holds a `.`, which cron ignores in /etc/cron.d file names"]);
  });

  it("applies the name rule to user timers too", () => {
    expect(messages(timer({ name: "backup.daily", user: true }))).toHaveLength(1);
    expect(messages(timer({ name: "sync@home", user: true }))).toHaveLength(1);
  });

  it("leaves other resource types alone", () => {
    expect(checkTimer({ type: "service", name: "web.x", exec: "/bin/true" })).toEqual([]);
  });
});
