import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isActive, parseStatus } from "./parse-status.js";

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");

describe("parseStatus", () => {
  it("reads every program's state, pid and description", () => {
    const statuses = parseStatus(fixture("status.txt"));
    expect([...statuses.keys()]).toEqual(["tend-a-very-long-program-name-beyond-thirty-two", "tend-crash", "tend-missing", "tend-once", "tend-oneshot", "tend-web"]);
    expect(statuses.get("tend-a-very-long-program-name-beyond-thirty-two")).toMatchObject({ state: "RUNNING", pid: 79, description: "pid 79, uptime 0:04:00", started: true });
    expect(statuses.get("tend-crash")).toMatchObject({ state: "FATAL", description: "Exited too quickly (process log may have details)" });
    expect(statuses.get("tend-missing")).toMatchObject({ state: "STOPPED", started: false });
    expect(statuses.get("tend-once")).toMatchObject({ state: "STOPPED", description: "Dec 04 02:35 PM", started: true });
    expect(statuses.get("tend-web")?.pid).toBeUndefined();
  });

  it("counts STARTING and BACKOFF as running, STOPPED, EXITED and FATAL as not", () => {
    const after = parseStatus(fixture("status-after-update.txt"));
    expect(after.get("tend-web")).toMatchObject({ state: "STARTING", description: "", started: true });
    expect(isActive(after.get("tend-web"))).toBe(true);
    expect(isActive(after.get("tend-crash"))).toBe(true);
    expect(isActive(after.get("tend-once"))).toBe(false);
    const later = parseStatus(fixture("status.txt"));
    for (const name of ["tend-crash", "tend-oneshot", "tend-web"]) expect(isActive(later.get(name)), name).toBe(false);
    expect(isActive(undefined)).toBe(false);
  });

  it("reads nothing from a message that is not a status line", () => {
    expect(parseStatus("unix:///var/run/supervisor.sock no such file\n").size).toBe(0);
  });
});
