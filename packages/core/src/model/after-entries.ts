import type { Service } from "./resource-schema.js";

/** Whether an `after` entry names another tend service (not `"network"`, not a `*.target`). */
export function isServiceAfter(entry: string): boolean {
  return entry !== "network" && !entry.endsWith(".target");
}

/** The tend services a service orders itself after, each once, in the order written. */
export function afterServices(service: Pick<Service, "after">): string[] {
  return [...new Set((service.after ?? []).filter(isServiceAfter))];
}

/** Whether a service orders itself after the network. */
export function afterNetwork(service: Pick<Service, "after">): boolean {
  return (service.after ?? []).includes("network");
}

/** The `*.target` units a service orders itself after (systemd's). */
export function afterTargets(service: Pick<Service, "after">): string[] {
  return [...new Set((service.after ?? []).filter((entry) => entry.endsWith(".target")))];
}
