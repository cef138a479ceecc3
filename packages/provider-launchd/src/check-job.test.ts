import { ServiceSchema, TimerSchema, validateSpec, type Service, type Timer } from "@tend/core";
import { describe, expect, it } from "vitest";
import { checkJob } from "./check-job.js";

const service = (fields: Omit<Service, "type">) => ServiceSchema.parse({ type: "service", ...fields });
const timer = (fields: Omit<Timer, "type">) => TimerSchema.parse({ type: "timer", ...fields });
const messages = (resource: Service | Timer) => checkJob(resource).map((e) => e.message);

describe("checkJob: the seed's Troubleshooting rows for launchd", () => {
  it("a schedule of 70 entries fails with the seed's text and the real count", () => {
    const [error, ...rest] = checkJob(timer({ name: "busy", exec: "/usr/local/bin/busy", schedule: "*/6 9-15 * * *" }));
    expect(rest).toEqual([]);
    expect(error?.message).toBe("schedule expands to 70 launchd calendar entries, more than the 64 tend writes");
    expect(error?.code).toBe("TEND_LAUNCHD_ENTRIES");
    expect(error?.location).toMatchObject({ resource: "timer:busy", field: "schedule" });
    expect(error?.hint).toContain("StartInterval");
  });

  it("counts what it would write: 180 for */15 9-17 * * 1-5, and exactly 64 passes", () => {
    expect(messages(timer({ name: "t", exec: "/bin/t", schedule: "*/15 9-17 * * 1-5" }))).toEqual([
      "schedule expands to 180 launchd calendar entries, more than the 64 tend writes",
    ]);
    expect(messages(timer({ name: "t", exec: "/bin/t", schedule: "0,15,30,45 0-15 * * *" }))).toEqual([]);
    expect(messages(timer({ name: "t", exec: "/bin/t", schedule: "0,15,30,45 0-16 * * *" }))).toEqual([
      "schedule expands to 68 launchd calendar entries, more than the 64 tend writes",
    ]);
  });

  it("@yearly and a day-of-month plus day-of-week schedule fail with the seed's texts, with the spec", () => {
    expect(() => validateSpec([{ type: "timer", name: "t", exec: "/bin/t", schedule: "@yearly" }])).toThrow(
      "schedule `@yearly` is not supported, use @hourly, @daily, @weekly, @monthly or five cron fields",
    );
    expect(() => validateSpec([{ type: "timer", name: "t", exec: "/bin/t", schedule: "0 0 1 * 1" }])).toThrow(
      "schedule `0 0 1 * 1` restricts both day-of-month and day-of-week; cron runs on either, and no init here can express that",
    );
  });

  it("refuses a starred day-of-month with a day-of-week, which launchd would widen", () => {
    const [error] = checkJob(timer({ name: "t", exec: "/bin/t", schedule: "0 0 */2 * 1-5" }));
    expect(error?.code).toBe("TEND_SCHEDULE_FIELD");
    expect(error?.location.resource).toBe("timer:t");
  });

  it("accepts the seed's timers and a dotted timer name (no cron here)", () => {
    expect(messages(timer({ name: "backup", exec: "restic backup ~/Documents", schedule: "30 2 * * *", user: true }))).toEqual([]);
    expect(messages(timer({ name: "gc", exec: "/usr/local/bin/tend gc --older-than 14d", schedule: "@weekly" }))).toEqual([]);
    expect(messages(timer({ name: "backup.daily", exec: "/bin/b", schedule: "@daily" }))).toEqual([]);
  });
});

describe("checkJob: what a plist cannot take", () => {
  it("refuses `Label` in launchd = {...}: it is how tend finds the job", () => {
    expect(messages(service({ name: "web", exec: "/bin/web", launchd: { Label: "com.example.web" } }))).toEqual([
      "service:web has an invalid `launchd`: `Label` is how tend finds the job (tend.web), so it cannot be set here",
    ]);
  });

  it("refuses text XML cannot carry, naming the field", () => {
    expect(messages(service({ name: "web", exec: "/bin/web \ud800" }))).toEqual(["service:web has an invalid `exec`: it holds U+D800, which a plist cannot carry"]);
    expect(messages(service({ name: "web", exec: "/bin/web", env: { A: "\uffff" } }))).toEqual(["service:web has an invalid `env`: it holds U+FFFF, which a plist cannot carry"]);
    expect(messages(service({ name: "web", exec: "/bin/web", launchd: { WatchPaths: ["/ok", "\udc00"] } }))).toEqual([
      "service:web has an invalid `launchd`: it holds U+DC00, which a plist cannot carry",
    ]);
    expect(messages(timer({ name: "t", exec: "/bin/t \ud83d", schedule: "@daily" }))).toEqual(["timer:t has an invalid `exec`: it holds U+D83D, which a plist cannot carry"]);
  });

  it("passes &, <, quotes and emoji: they are escaped, not refused", () => {
    expect(messages(service({ name: "web", exec: `/bin/web --q "a&b<c>" 😀`, env: { A: "<&>" }, launchd: { "K&<>": "v&<>" } }))).toEqual([]);
  });
});

describe("checkJob: a reloadSignal the program would not receive", () => {
  const reloading = (exec: string, fields: Record<string, unknown> = {}) => checkJob(service({ name: "web", exec, reloadSignal: "HUP", restart: "always", ...fields }));

  it("refuses a pipeline: launchctl kill would signal the shell in front of it, naming the field", () => {
    const [error, ...rest] = reloading("/opt/demo/bin/demo x | /opt/demo/bin/demo x-tail");
    expect(rest).toEqual([]);
    expect(error?.location).toMatchObject({ resource: "service:web", field: "reloadSignal" });
    expect(error?.message).toBe(
      "service:web has an invalid `reloadSignal`: `exec` is shell syntax that /bin/sh keeps running in front of the program (a pipeline, a background job or a compound command last), and `launchctl kill SIGHUP` signals the job's own process, that shell: it would end, and launchd would start the job again (or leave it stopped) instead of the program reloading",
    );
    expect(error?.hint).toContain("restartOn");
  });

  it.each([
    ["a simple command", "/opt/demo/bin/demo x"],
    ["a quoted simple command", '/opt/demo/bin/demo x "" "daemon off;"'],
    ["shell syntax whose last command is exec'd", "cd /var/tmp && /opt/demo/bin/demo x"],
    ["a shell loop that traps the signal itself", `/bin/sh -c 'trap "echo hup" HUP; while :; do sleep 1; done'`],
  ])("accepts %s: the signal reaches the program", (_what, exec) => {
    expect(reloading(exec)).toEqual([]);
  });

  it("a shell that traps another signal is refused for this one", () => {
    expect(reloading("/opt/a | /opt/b; trap 'x' USR1").map((e) => e.location.field)).toEqual(["reloadSignal"]);
  });

  it("leaves a hatch that replaces ProgramArguments to plan's warning: exec is not what runs", () => {
    expect(reloading("/opt/a | /opt/b", { launchd: { ProgramArguments: ["/opt/a"] } })).toEqual([]);
  });
});
