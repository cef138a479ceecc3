import type { ProviderDefinition } from "@tend/core";

/** One capability, with a resource that uses it and how to tell the provider claims it. */
export interface CapabilityProbe {
  name: string;
  /** The field plan names when the provider cannot express it. */
  field: string;
  resource: Record<string, unknown> & { type: "service" | "timer" };
  claimed(provider: ProviderDefinition): boolean;
}

const service = (fields: Record<string, unknown>) => ({ type: "service" as const, name: "probe", ...fields });

/** Every capability a provider can claim (see Capabilities in @tend/core/contract). */
export const CAPABILITY_PROBES: CapabilityProbe[] = [
  { name: "user services", field: "user", resource: service({ exec: "/opt/probe/bin/run", user: true }), claimed: (p) => p.capabilities.service?.userServices === true },
  { name: "distro units", field: "exec", resource: service({ name: "sshd" }), claimed: (p) => p.capabilities.service?.distroUnits === true },
  {
    name: "after a service or the network",
    field: "after",
    resource: service({ exec: "/opt/probe/bin/run", after: ["network"] }),
    claimed: (p) => p.capabilities.service?.after !== undefined,
  },
  {
    name: "after a *.target",
    field: "after",
    resource: service({ exec: "/opt/probe/bin/run", after: ["graphical.target"] }),
    claimed: (p) => p.capabilities.service?.after === "targets" || p.capabilities.service?.after === "ignored",
  },
  { name: "the systemd escape hatch", field: "systemd", resource: service({ exec: "/opt/probe/bin/run", systemd: { MemoryMax: "512M" } }), claimed: (p) => p.capabilities.service?.escapeHatch === "systemd" },
  { name: "the launchd escape hatch", field: "launchd", resource: service({ exec: "/opt/probe/bin/run", launchd: { ProcessType: "Background" } }), claimed: (p) => p.capabilities.service?.escapeHatch === "launchd" },
  { name: "display managers", field: "displayManager", resource: service({ name: "gdm", displayManager: true }), claimed: (p) => p.capabilities.service?.displayManager === true },
  { name: "reload signals", field: "reloadSignal", resource: service({ exec: "/opt/probe/bin/run", reloadSignal: "HUP" }), claimed: (p) => p.capabilities.service?.reloadSignal === true },
  { name: "user timers", field: "user", resource: { type: "timer", name: "probe", exec: "/opt/probe/bin/run", schedule: "@daily", user: true }, claimed: (p) => p.capabilities.timer?.userTimers === true },
];
