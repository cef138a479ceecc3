import type { ProviderDefinition } from "../contract/provider.js";
import { errors, moreErrors } from "../errors/catalogue.js";
import type { TendError } from "../errors/tend-error.js";
import { afterServices, afterTargets } from "../model/after-entries.js";
import type { Resource } from "../model/resource-schema.js";

/** Who serves a resource on this host, for messages. */
export interface Server {
  /** The init's display name (`OpenRC`). */
  init: string;
  /** The provider package, and whether it is the init's own (the one that declares it). */
  packageName: string;
  own: boolean;
}

/**
 * The fields a resource uses that its provider cannot express, each as the seed's error. Only
 * fields the spec actually sets are checked; a capability the provider leaves out is unsupported.
 * The seed's wording blames the init ("OpenRC has no user services"); when the serving provider
 * is not the init's own, the message names the provider instead, since another may do better.
 */
export function checkCapabilities(resource: Resource, provider: ProviderDefinition, server: Server): TendError[] {
  const ref = `${resource.type}:${resource.name}`;
  const who = server.own ? server.init : `${server.packageName} (on ${server.init})`;
  const found: TendError[] = [];
  if (resource.type === "timer") {
    if (resource.user && !provider.capabilities.timer?.userTimers) found.push(moreErrors.noUserTimers(ref, who));
    return found;
  }
  if (resource.type !== "service") return found;
  const caps = provider.capabilities.service ?? {};
  if (resource.user && !caps.userServices) found.push(errors.noUserServices(ref, who));
  if (resource.exec === undefined && !caps.distroUnits) found.push(errors.noDistroUnits(ref, who));
  const target = afterTargets(resource)[0];
  if (target && caps.after !== "targets" && caps.after !== "ignored") found.push(errors.targetAfter(ref, target, server.own ? server.init : who));
  const service = afterServices(resource)[0] ?? ((resource.after ?? []).includes("network") ? "network" : undefined);
  if (service && caps.after === undefined) found.push(moreErrors.unsupportedField(ref, "after", who));
  for (const hatch of ["systemd", "launchd"] as const) {
    const value = resource[hatch];
    if (value !== undefined && caps.escapeHatch !== hatch) found.push(errors.escapeHatch(ref, hatch, Object.keys(value), who));
  }
  if (resource.displayManager && !caps.displayManager) found.push(moreErrors.unsupportedField(ref, "displayManager", who));
  if (resource.reloadSignal && !caps.reloadSignal) found.push(moreErrors.unsupportedField(ref, "reloadSignal", who));
  return found;
}
