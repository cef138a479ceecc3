import type { Operation, Resource } from "@tend/core";
import { hatchDirectives, hatchValues } from "./merge-escape-hatch.js";

const TRUE = new Set(["1", "yes", "y", "true", "t", "on"]);

/**
 * A unit with `RefuseManualStart=yes` (or `RefuseManualStop=yes`) under `unit` refuses
 * `systemctl start` (or `stop`); `restart` needs both. Such a unit is enabled and disabled but
 * starts with whatever wants it (seed). `reload` is left alone: systemd allows it on these units.
 */
export function refusedOperations(resource: Resource): Operation[] {
  if (resource.type !== "service" || resource.exec === undefined) return [];
  const unit = new Map<string, string | undefined>();
  for (const [section, key, value] of hatchDirectives(resource.systemd)) {
    if (section === "Unit") unit.set(key, hatchValues(value).at(-1)?.toLowerCase());
  }
  const refused = new Set<Operation>();
  if (TRUE.has(unit.get("RefuseManualStart") ?? "")) refused.add("start").add("restart");
  if (TRUE.has(unit.get("RefuseManualStop") ?? "")) refused.add("stop").add("restart");
  return [...refused];
}
