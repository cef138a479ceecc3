import { API_VERSION, checkCapabilities, ServiceSchema, type Resource } from "@tend/core";
import { describe, expect, it } from "vitest";
import provider from "./index.js";

const service = (fields: Record<string, unknown>) => ServiceSchema.parse({ type: "service", ...fields });
const capabilityErrors = (resource: Resource) => checkCapabilities(resource, provider, "launchd").map((e) => e.message);

describe("the launchd provider's declared capabilities, through the core's capability check", () => {
  it("speaks the contract and serves services and timers on launchd", () => {
    expect(provider.apiVersion).toBe(API_VERSION);
    expect(provider.serves).toEqual({ inits: ["launchd"], types: ["service", "timer"] });
  });

  it("a service without exec gets the seed's error", () => {
    expect(capabilityErrors(service({ name: "gdm" }))).toEqual(["service:gdm has no exec, and enabling a unit the system ships is not supported on launchd"]);
  });

  it("systemd = {...} gets the seed's error", () => {
    expect(capabilityErrors(service({ name: "web", exec: "/bin/web", systemd: { MemoryMax: "512M" } }))).toEqual([
      "service:web sets `systemd` (MemoryMax), which only systemd supports, and this host uses launchd",
    ]);
  });

  it("user services, launchd = {...}, reloadSignal and `*.target` in after are accepted (after is ignored)", () => {
    expect(
      capabilityErrors(
        service({ name: "bar", exec: "waybar", user: true, after: ["graphical-session.target", "network"], launchd: { ProcessType: "Interactive" }, reloadSignal: "HUP" }),
      ),
    ).toEqual([]);
  });

  it("displayManager is not something launchd has", () => {
    expect(capabilityErrors(service({ name: "gdm", exec: "/bin/gdm", displayManager: true }))).toHaveLength(1);
  });
});
