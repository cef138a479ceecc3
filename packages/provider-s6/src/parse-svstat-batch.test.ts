import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TendError } from "@tend/core";
import { parseSvstatBatch } from "./parse-svstat-batch.js";

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
const DIR = "/tmp/s6cap/scan";

describe("parseSvstatBatch (captured from s6 2.11.3.2)", () => {
  const statuses = parseSvstatBatch(fixture("svstat-states.txt"));

  it("reads a running program", () => {
    expect(statuses.get(`${DIR}/tend-up`)).toEqual({
      supervised: true,
      up: true,
      wantedUp: true,
      normallyUp: true,
      ready: false,
      pid: 31661,
      since: "@400000006b10453522f59a7b",
      forSeconds: 324,
    });
  });

  it("reads an exit whose finish said 125: down and no longer wanted up", () => {
    expect(statuses.get(`${DIR}/tend-exit3`)).toMatchObject({ up: false, wantedUp: false, exitCode: 3 });
    expect(statuses.get(`${DIR}/tend-ok`)).toMatchObject({ up: false, wantedUp: false, exitCode: 0 });
  });

  it("reads a respawning program between two runs as down but wanted up", () => {
    expect(statuses.get(`${DIR}/tend-crash`)).toMatchObject({ up: false, wantedUp: true, exitCode: 1 });
    expect(statuses.get(`${DIR}/tend-slowfinish`)).toMatchObject({ up: false, wantedUp: true, exitCode: 2 });
  });

  it("reads readiness only for a program that notified it", () => {
    expect(statuses.get(`${DIR}/tend-ready`)).toMatchObject({ up: true, ready: true, pid: 31685 });
    expect(statuses.get(`${DIR}/tend-notready`)).toMatchObject({ up: true, ready: false, pid: 31696 });
  });

  it("reads a signal death and a stop", () => {
    const killed = statuses.get(`${DIR}/tend-killed`);
    expect(killed).toMatchObject({ up: false, wantedUp: false, signal: "SIGKILL" });
    expect(killed).not.toHaveProperty("exitCode");
    expect(statuses.get(`${DIR}/tend-stopped`)).toMatchObject({ up: false, wantedUp: false, signal: "SIGTERM" });
    expect(statuses.get(`${DIR}/tend-downfile`)).toMatchObject({ up: false, normallyUp: false });
  });

  it("reads a folder no s6-supervise runs on as unsupervised", () => {
    expect(statuses.get("/tmp/s6cap/nonexistent")).toEqual({ supervised: false });
    expect(statuses.size).toBe(11);
  });

  it("fails clearly when s6-svstat is not installed", () => {
    expect(() => parseSvstatBatch(fixture("svstat-not-installed.txt"))).toThrow(/s6-svstat exited 127/);
  });

  it("refuses output it does not understand instead of guessing", () => {
    const error = (() => {
      try {
        parseSvstatBatch("/run/s6-rc/servicedirs/tend-x up (pid 1) 3 seconds\n");
      } catch (e) {
        return e;
      }
    })();
    expect(TendError.isInstance(error) && error.code).toBe("TEND_S6_SVSTAT_OUTPUT");
  });
});
