import { describe, expect, it } from "vitest";
import type { HostOutcome } from "./run-fleet.js";
import { fleetExitCode, fleetJson, summaryTable } from "./summary.js";

function outcome(name: string, over: Partial<HostOutcome> = {}): HostOutcome {
  return { name, init: "systemd", status: "ok", counts: { add: 0, change: 0, remove: 0, failed: 0 }, changes: false, ms: 1234, text: "", steps: [], applied: false, errors: [], ...over };
}

describe("the fleet summary", () => {
  it("is a table of host, init, added/changed/removed/failed, status and time", () => {
    const table = summaryTable([outcome("web1", { counts: { add: 3, change: 1, remove: 0, failed: 0 }, changes: true }), outcome("db-primary", { init: "", status: "unreachable", counts: { add: 0, change: 0, remove: 0, failed: 1 }, ms: 30_050 })]);
    expect(table).toBe(
      ["HOST        INIT     ADDED  CHANGED  REMOVED  FAILED  STATUS        TIME", "web1        systemd      3        1        0       0  ok            1.2s", "db-primary  -            0        0        0       1  unreachable  30.1s", ""].join("\n"),
    );
  });

  it.each([
    [[outcome("a"), outcome("b")], false, 0],
    [[outcome("a", { changes: true }), outcome("b")], false, 0],
    [[outcome("a", { changes: true }), outcome("b")], true, 2],
    [[outcome("a", { changes: true }), outcome("b", { status: "failed" })], true, 1],
    [[outcome("a"), outcome("b", { status: "locked" })], false, 1],
    [[outcome("a"), outcome("b", { status: "unreachable" })], false, 1],
  ])("exit code %#", (outcomes, detailed, code) => {
    expect(fleetExitCode(outcomes, detailed)).toBe(code);
  });

  it("gives --json one entry per host", () => {
    const json = fleetJson("apply", [outcome("a", { steps: ["service:web: started"], applied: true })]) as { hosts: unknown[] };
    expect(json.hosts).toEqual([{ name: "a", init: "systemd", status: "ok", counts: { add: 0, change: 0, remove: 0, failed: 0 }, changes: false, seconds: 1.234, applied: true, steps: ["service:web: started"], errors: [] }]);
  });
});
