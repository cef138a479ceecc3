import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseJobPrint } from "./parse-job-print.js";

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");

describe("parseJobPrint on captured outputs", () => {
  it("reads a running KeepAlive agent: top-level state and pid, not the nested `state = active`", () => {
    expect(parseJobPrint(fixture("print-gui-agent-keepalive-running.txt"))).toEqual({ state: "running", pid: 1076, runs: 1 });
  });

  it("reads a running system daemon printed with spaces instead of tabs", () => {
    expect(parseJobPrint(fixture("print-system-daemon-running.txt"))).toEqual({ state: "running", pid: 928, runs: 1 });
  });

  it("reads an interval job between runs: no pid, last exit 0", () => {
    expect(parseJobPrint(fixture("print-gui-agent-interval-not-running.txt"))).toEqual({ state: "not running", lastExitCode: 0, runs: 18 });
  });

  it("reads a job whose last run failed", () => {
    expect(parseJobPrint(fixture("print-gui-agent-watchpaths-exited-1.txt"))).toEqual({ state: "not running", lastExitCode: 1, runs: 4 });
  });

  it("reads a calendar job that never ran: no exit code", () => {
    expect(parseJobPrint(fixture("print-gui-agent-calendar-never-ran.txt"))).toEqual({ state: "not running", runs: 0 });
  });

  it("reads `78: EX_CONFIG` and a terminating signal", () => {
    const text = fixture("print-gui-agent-interval-not-running.txt").replace("\tlast exit code = 0", "\tlast exit code = 78: EX_CONFIG");
    expect(parseJobPrint(text).lastExitCode).toBe(78);
    const signalled = fixture("print-gui-agent-interval-not-running.txt").replace("\tlast exit code = 0", "\tlast terminating signal = Terminated: 15");
    expect(parseJobPrint(signalled)).toMatchObject({ lastSignal: "Terminated: 15" });
    expect(parseJobPrint(signalled).lastExitCode).toBeUndefined();
  });

  it("reads nothing from launchctl's not-found answer", () => {
    expect(parseJobPrint(fixture("print-gui-service-not-found.stderr.txt"))).toEqual({});
  });
});
