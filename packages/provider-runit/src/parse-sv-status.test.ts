import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isRunning, parseSvStatus, parseSvStatusLine } from "./parse-sv-status.js";

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
const dir = (name: string) => `/etc/sv/tend-${name}`;

describe("parseSvStatus on a captured batch", () => {
  const names = ["checked", "crash", "finishing", "new", "nolog", "off", "offup", "once", "paused", "stubborn", "unready", "web", "gone"];
  const statuses = parseSvStatus(fixture("sv-status-batch.txt"), names.map(dir));

  it("answers for every directory, one line each", () => {
    expect([...statuses.keys()].sort()).toEqual(names.map(dir).sort());
  });

  it("reads a running service and its log service", () => {
    expect(statuses.get(dir("web"))).toMatchObject({
      service: { state: "run", pid: 1140, seconds: 3, flags: [] },
      log: { state: "run", pid: 1135, seconds: 3, flags: [] },
    });
    expect(isRunning(statuses.get(dir("web")))).toBe(true);
  });

  it("reads flags: crash loop, down file, paused", () => {
    expect(statuses.get(dir("crash"))?.service).toEqual({ state: "down", seconds: 0, flags: ["normally up", "want up"] });
    expect(statuses.get(dir("off"))?.service).toEqual({ state: "down", seconds: 3, flags: [] });
    expect(statuses.get(dir("offup"))?.service).toEqual({ state: "run", pid: 1328, seconds: 1, flags: ["normally down"] });
    expect(statuses.get(dir("paused"))?.service?.flags).toEqual(["paused"]);
    expect(isRunning(statuses.get(dir("crash")))).toBe(false);
    expect(isRunning(statuses.get(dir("offup")))).toBe(true);
  });

  it("counts a finishing service as not running", () => {
    expect(statuses.get(dir("finishing"))?.service).toEqual({ state: "finish", pid: 1354, seconds: 1, flags: [] });
    expect(isRunning(statuses.get(dir("finishing")))).toBe(false);
  });

  it("reports errors: not picked up yet, no such directory", () => {
    expect(statuses.get(dir("new"))?.error).toBe("unable to open supervise/ok: file does not exist");
    expect(statuses.get(dir("gone"))?.error).toBe("unable to change to service directory: file does not exist");
    expect(statuses.get(dir("new"))?.service).toBeUndefined();
    expect(isRunning(statuses.get(dir("gone")))).toBe(false);
  });

  it("sees a runsv that started before log/ existed: no log process", () => {
    const nolog = statuses.get(dir("nolog"));
    expect(nolog?.service).toEqual({ state: "run", pid: 1126, seconds: 3, flags: [] });
    expect(nolog?.log).toBeUndefined();
  });

  it("does not mistake a directory for one whose name it prefixes", () => {
    expect(parseSvStatus("run: /etc/sv/tend-web-2: (pid 9) 1s\n", [dir("web")]).size).toBe(0);
  });
});

describe("parseSvStatusLine on other captured outputs", () => {
  it("reads sv check verdicts", () => {
    const checks = parseSvStatus(fixture("sv-check.txt"), [dir("checked"), dir("unready")]);
    expect(checks.get(dir("checked"))).toMatchObject({ checked: true, service: { state: "run", pid: 1147 } });
    expect(checks.get(dir("unready"))).toMatchObject({ checked: false, service: { state: "run", pid: 1142 } });
  });

  it("reads want down and got TERM", () => {
    const status = parseSvStatusLine(fixture("sv-status-want-down.txt").trim(), dir("stubborn"));
    expect(status?.service).toEqual({ state: "run", pid: 4213, seconds: 18, flags: ["want down", "got TERM"] });
    expect(isRunning(status)).toBe(false);
    const timeout = parseSvStatusLine(fixture("sv-stop-timeout.txt").trim(), dir("stubborn"));
    expect(timeout?.checked).toBe(false);
  });

  it("reads a runsv that is gone, and sv exit's confirmation", () => {
    expect(parseSvStatusLine(fixture("sv-status-runsv-gone.txt").trim(), dir("web"))?.error).toBe("runsv not running");
    expect(parseSvStatusLine(fixture("sv-exit.txt").trim(), dir("nolog"))).toMatchObject({ checked: true, error: "runsv not running" });
  });

  it("reads a log service that is down", () => {
    expect(parseSvStatusLine(fixture("sv-status-after-exit.txt").trim(), dir("nolog"))?.log).toEqual({
      state: "down",
      seconds: 0,
      flags: ["normally up", "want up"],
    });
  });

  it("shows why a change stops and starts instead of sv restart", () => {
    const dirs = [dir("no"), dir("graceful")];
    const lines = fixture("sv-restart-with-finish.txt").split("\n");
    expect(parseSvStatusLine(lines[1]!, dir("no"))).toMatchObject({ checked: false, service: { state: "down" } });
    const after = parseSvStatus(fixture("stop-then-up.txt").split("\n").slice(2).join("\n"), dirs);
    expect(dirs.map((d) => isRunning(after.get(d)))).toEqual([true, true]);
  });
});
