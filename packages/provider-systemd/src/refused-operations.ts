import type { Observation, Operation, Resource } from "@tend/core/contract";
import { hatchDirectives, hatchValues } from "./merge-escape-hatch.js";

const TRUE = new Set(["1", "yes", "y", "true", "t", "on"]);
const RUNTIME: Operation[] = ["start", "stop", "restart"];

/**
 * A unit with `RefuseManualStart=yes` or `RefuseManualStop=yes` is enabled and disabled but
 * never started, stopped or restarted by apply: it starts with whatever wants it (seed). tend's
 * own unit says so through the hatch (`systemd: {unit: {RefuseManualStop: true}}`); a distro
 * unit's answer is systemd's, which observation reads (see refusesManualOperations). `reload`
 * stays allowed: systemd allows it on these units.
 */
export function refusedOperations(resource: Resource, observation?: Observation): Operation[] {
  if (resource.type !== "service") return [];
  return refusesManualOperations(resource, observation) ? [...RUNTIME] : [];
}

/** Whether a service's unit refuses a manual start or stop, from its hatch or, for a distro unit, from what systemd said. */
export function refusesManualOperations(resource: Extract<Resource, { type: "service" }>, observation?: Observation): boolean {
  if (resource.exec === undefined) return observation?.details?.refuseManualStart === true || observation?.details?.refuseManualStop === true;
  const unit = new Map<string, string | undefined>();
  for (const [section, key, value] of hatchDirectives(resource.systemd)) {
    if (section === "Unit") unit.set(key, hatchValues(value).at(-1)?.toLowerCase());
  }
  return TRUE.has(unit.get("RefuseManualStart") ?? "") || TRUE.has(unit.get("RefuseManualStop") ?? "");
}
