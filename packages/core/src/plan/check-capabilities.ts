import type { ProviderDefinition } from "../contract/provider.js";
import { INIT_DISPLAY_NAMES, type InitName } from "../contract/host.js";
import { errors, moreErrors } from "../errors/catalogue.js";
import type { TendError } from "../errors/tend-error.js";
import type { Resource } from "../model/resource-schema.js";

/**
 * The fields a resource uses that its provider cannot express, each as the seed's error. Only
 * fields the spec actually sets are checked; a capability the provider leaves out is unsupported.
 */
export function checkCapabilities(resource: Resource, provider: ProviderDefinition, init: InitName): TendError[] {
  const ref = `${resource.type}:${resource.name}`;
  const initName = INIT_DISPLAY_NAMES[init];
  const found: TendError[] = [];
  if (resource.type === "timer") {
    if (resource.user && !provider.capabilities.timer?.userTimers) found.push(moreErrors.noUserTimers(ref, initName));
    return found;
  }
  if (resource.type !== "service") return found;
  const caps = provider.capabilities.service ?? {};
  if (resource.user && !caps.userServices) found.push(errors.noUserServices(ref, initName));
  if (resource.exec === undefined && !caps.distroUnits) found.push(errors.noDistroUnits(ref, initName));
  const target = resource.after?.find((entry) => entry.endsWith(".target"));
  if (target && !caps.systemdTargets) found.push(errors.targetAfter(ref, target, initName));
  for (const hatch of ["systemd", "launchd"] as const) {
    const value = resource[hatch];
    if (value !== undefined && caps.escapeHatch !== hatch) found.push(errors.escapeHatch(ref, hatch, Object.keys(value), initName));
  }
  if (resource.displayManager && !caps.displayManager) found.push(moreErrors.unsupportedField(ref, "displayManager", initName));
  if (resource.reloadSignal && !caps.reloadSignal) found.push(moreErrors.unsupportedField(ref, "reloadSignal", initName));
  return found;
}
