import type { Resource } from "../model/resource-schema.js";

/** Desired state: `desired` when given, else fspec's rule (exec: running; distro unit: unmanaged). */
export function desiredOf(service: Extract<Resource, { type: "service" }>): { state?: "running" | "stopped"; enabled: boolean } {
  if (service.desired) return service.desired;
  return service.exec !== undefined ? { state: "running", enabled: true } : { enabled: true };
}
