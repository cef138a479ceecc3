import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseDinitList } from "./parse-dinit-list.js";

// Captured from dinit 0.22.1: tend-web enabled from boot, tend-zero exited 0, tend-bad exited 1,
// tend-noexec could not be launched, tend-hup killed by SIGHUP, tend-slow stopping, tend-ready
// waiting for its ready-notification.
const LIST = readFileSync(new URL("./__fixtures__/dinitctl-list.txt", import.meta.url), "utf8");

describe("parseDinitList", () => {
  const services = parseDinitList(LIST);

  it("reads every line", () => {
    expect([...services.keys()]).toEqual(["boot", "tend-web", "tend-zero", "tend-bad", "tend-noexec", "tend-hup", "tend-slow", "tend-ready"]);
  });

  it("reads started services, explicit or as a dependency, with their pid", () => {
    expect(services.get("boot")).toMatchObject({ state: "started", explicit: true, failed: false });
    expect(services.get("tend-web")).toMatchObject({ state: "started", explicit: false, target: "started", pid: 26452 });
  });

  it("reads stopped services, failed or not, with exit status or signal", () => {
    expect(services.get("tend-zero")).toMatchObject({ state: "stopped", failed: false, exitStatus: 0, target: "stopped" });
    expect(services.get("tend-bad")).toMatchObject({ state: "stopped", failed: true, exitStatus: 1 });
    expect(services.get("tend-noexec")).toMatchObject({ state: "stopped", failed: true });
    expect(services.get("tend-noexec")?.exitStatus).toBeUndefined();
    expect(services.get("tend-hup")).toMatchObject({ state: "stopped", failed: true, signal: 1 });
  });

  it("reads transitions", () => {
    expect(services.get("tend-slow")).toMatchObject({ state: "stopping", target: "stopped", pid: 27138 });
    expect(services.get("tend-ready")).toMatchObject({ state: "starting", explicit: true, pid: 27135 });
  });

  it("ignores anything else", () => {
    expect(parseDinitList("dinitctl: warning\n\n").size).toBe(0);
  });
});
