import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { processStartedAt, procStatFields } from "./process-start.js";

describe("processStartedAt", () => {
  it("reads field 22 after a command name holding spaces and parentheses, from boot time", () => {
    const stat = "4242 (my (odd) prog) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 12345 2000000 300 18446744073709551615";
    expect(processStartedAt(stat, "cpu  1 2 3\nbtime 1700000000\nprocesses 9\n")).toBe(1_700_000_000_000 + 123_450);
  });

  it("says undefined for text that is not /proc's", () => {
    expect(processStartedAt("nonsense", "btime 1700000000\n")).toBeUndefined();
    expect(processStartedAt("1 (x) S 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 7", "no boot time\n")).toBeUndefined();
  });

  it("puts this test's own process within a second of when node says it started", () => {
    const started = processStartedAt(readFileSync("/proc/self/stat", "utf8"), readFileSync("/proc/stat", "utf8"))!;
    const expected = Date.now() - process.uptime() * 1000;
    expect(Math.abs(started - expected)).toBeLessThan(1500);
  });
});

describe("procStatFields", () => {
  it("counts the fields from the command name's last parenthesis, whatever the name holds", () => {
    expect(procStatFields("4242 (my (odd) name) S 1 4200 4200 0 -1").slice(0, 3)).toEqual(["S", "1", "4200"]);
    // This process, reading itself: running, and its parent's pid.
    expect(procStatFields(readFileSync("/proc/self/stat", "utf8")).slice(0, 2)).toEqual(["R", String(process.ppid)]);
  });
});
