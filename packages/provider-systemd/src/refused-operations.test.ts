import { service, ServiceSchema, type Service } from "@tend/core";
import { describe, expect, it } from "vitest";
import { refusedOperations } from "./refused-operations.js";

const svc = (systemd?: Service["systemd"]) => ServiceSchema.parse(service("x", { exec: "/bin/x", ...(systemd ? { systemd } : {}) }));
const RUNTIME = ["start", "stop", "restart"];

describe("refusedOperations", () => {
  it("never starts, stops or restarts a unit that refuses a manual start or stop (seed); reload stays allowed", () => {
    expect(refusedOperations(svc({ unit: { RefuseManualStart: true } }))).toEqual(RUNTIME);
    expect(refusedOperations(svc({ unit: { RefuseManualStop: "yes" } }))).toEqual(RUNTIME);
    expect(refusedOperations(svc({ unit: { RefuseManualStart: true, RefuseManualStop: "on" } }))).toEqual(RUNTIME);
  });

  it("takes a distro unit's answer from what systemd reported", () => {
    const sshd = ServiceSchema.parse(service("sshd"));
    expect(refusedOperations(sshd, { exists: true, details: { refuseManualStop: true } })).toEqual(RUNTIME);
    expect(refusedOperations(sshd, { exists: true, details: { refuseManualStart: true } })).toEqual(RUNTIME);
    expect(refusedOperations(sshd, { exists: true, details: { load: "loaded" } })).toEqual([]);
    expect(refusedOperations(sshd)).toEqual([]);
  });

  it("refuses nothing otherwise", () => {
    expect(refusedOperations(svc())).toEqual([]);
    expect(refusedOperations(svc({ unit: { RefuseManualStart: false } }))).toEqual([]);
    expect(refusedOperations(svc({ RefuseManualStart: true }))).toEqual([]); // not a [Service] directive
    // a tend unit's answer is its hatch, whatever an observation says
    expect(refusedOperations(svc(), { exists: true, details: { refuseManualStop: true } })).toEqual([]);
  });
});
