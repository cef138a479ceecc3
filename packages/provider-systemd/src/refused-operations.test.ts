import { service, ServiceSchema, type Service } from "@tend/core";
import { describe, expect, it } from "vitest";
import { refusedOperations } from "./refused-operations.js";

const svc = (systemd?: Service["systemd"]) => ServiceSchema.parse(service("x", { exec: "/bin/x", ...(systemd ? { systemd } : {}) }));

describe("refusedOperations", () => {
  it("never starts, stops or restarts a unit that refuses it; reload stays allowed", () => {
    expect(refusedOperations(svc({ unit: { RefuseManualStart: true } }))).toEqual(["start", "restart"]);
    expect(refusedOperations(svc({ unit: { RefuseManualStop: "yes" } }))).toEqual(["stop", "restart"]);
    expect(refusedOperations(svc({ unit: { RefuseManualStart: true, RefuseManualStop: "on" } })).sort()).toEqual(["restart", "start", "stop"]);
  });

  it("refuses nothing otherwise", () => {
    expect(refusedOperations(svc())).toEqual([]);
    expect(refusedOperations(svc({ unit: { RefuseManualStart: false } }))).toEqual([]);
    expect(refusedOperations(svc({ RefuseManualStart: true }))).toEqual([]); // not a [Service] directive
    expect(refusedOperations(ServiceSchema.parse(service("sshd")))).toEqual([]);
  });
});
