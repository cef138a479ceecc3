import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseRcStatus } from "./parse-rc-status.js";

// `rc-status -C -s` on Debian 12's openrc 0.45.2 under sysvinit: supervised services with
// uptime and respawn count, a supervise-daemon that gave up (failed), one whose supervisor was
// killed (unsupervised), and a dead background daemon that OpenRC still counts started (t-bg2).
const fixture = readFileSync(new URL("./__fixtures__/rc-status-servicelist.txt", import.meta.url), "utf8");

describe("parseRcStatus", () => {
  it("reads every service of the captured output", () => {
    const entries = parseRcStatus(fixture);
    expect(entries.size).toBe(fixture.trimEnd().split("\n").length);
    expect(entries.get("t-sup")).toEqual({ status: "started", uptime: "00:04:15", respawns: 1 });
    expect(entries.get("t-sh")).toEqual({ status: "started", uptime: "00:05:44", respawns: 0 });
    expect(entries.get("rc.local")).toEqual({ status: "started" });
    expect(entries.get("t-fail")).toEqual({ status: "failed" });
    expect(entries.get("t-sh2")).toEqual({ status: "unsupervised" });
    expect(entries.get("t-bg2")).toEqual({ status: "started" });
    expect(entries.get("agetty")).toEqual({ status: "stopped" });
  });

  it("reads uptimes over a day, long names and the other states", () => {
    const text = [
      " tend-a                                     [  started 2 day(s) 03:04:05 (12) ]",
      " tend-a-very-long-service-name-that-fills-the-line-up-to-the-bracket-and-beyond [  crashed  ]",
      " tend-c                                                             [  stopping  ]",
      " tend-d                                                            [  starting  ]",
      " tend-e                                                             [  inactive  ]",
      " * some warning",
      "",
    ].join("\n");
    const entries = parseRcStatus(text);
    expect(entries.get("tend-a")).toEqual({ status: "started", uptime: "2 day(s) 03:04:05", respawns: 12 });
    expect(entries.get("tend-a-very-long-service-name-that-fills-the-line-up-to-the-bracket-and-beyond")).toEqual({ status: "crashed" });
    expect(entries.get("tend-c")).toEqual({ status: "stopping" });
    expect(entries.get("tend-d")).toEqual({ status: "starting" });
    expect(entries.get("tend-e")).toEqual({ status: "inactive" });
    expect(entries.size).toBe(5);
  });
});
