import { checkCapabilities, ServiceSchema, type Resource } from "@tend/core";
import { describeConformance, writeHostTree } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import provider from "./index.js";

const service = (fields: Record<string, unknown>) => ServiceSchema.parse({ type: "service", ...fields });
const capabilityErrors = (resource: Resource) => checkCapabilities(resource, provider, { init: "launchd", packageName: "@tend/provider-launchd", own: true }).map((e) => e.message);

describeConformance({
  provider,
  packageJson: new URL("../package.json", import.meta.url),
  init: "launchd",
  // LaunchDaemons belong to root:wheel; the image root's group database says who wheel is.
  prepareRoot: (root) => writeHostTree(root, { "etc/group": "wheel:*:0:root\n", "etc/passwd": "root:*:0:0::/var/root:/bin/sh\n" }),
});

describe("the launchd provider's declared capabilities, through the core's capability check", () => {
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
