import type { Resource, Service } from "@tend/core/contract";

/** The services among resources. */
export function servicesOf(resources: Resource[]): Service[] {
  return resources.filter((resource): resource is Service => resource.type === "service");
}
