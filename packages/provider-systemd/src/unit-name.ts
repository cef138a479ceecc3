import type { Service, Timer } from "@tend/core/contract";

/** The unit types systemd knows; a distro service named with one of them is taken as written. */
const UNIT_SUFFIXES = [".service", ".socket", ".target", ".device", ".mount", ".automount", ".swap", ".path", ".timer", ".slice", ".scope"];

/** `tend-<name>.service` / `tend-<name>.timer`: the units tend writes. */
export function tendUnitName(name: string, type: "service" | "timer"): string {
  return `tend-${name}.${type}`;
}

/** A distro unit: the name as given when it carries a unit suffix (`nordvpnd.socket`), else `<name>.service`. */
export function distroUnitName(name: string): string {
  return UNIT_SUFFIXES.some((suffix) => name.endsWith(suffix)) ? name : `${name}.service`;
}

/** Whether a service names a unit the distro ships (no `exec`). */
export function isDistroUnit(resource: Service | Timer): boolean {
  return resource.type === "service" && resource.exec === undefined;
}

/**
 * The unit apply enables, starts and observes for a resource: a timer's `.timer` (never its
 * `.service`, which is static), a tend service's own unit, or the distro's unit.
 */
export function primaryUnit(resource: Service | Timer): string {
  if (resource.type === "timer") return tendUnitName(resource.name, "timer");
  return resource.exec === undefined ? distroUnitName(resource.name) : tendUnitName(resource.name, "service");
}

/** The unit whose process runs the command, for logs: a timer's oneshot `.service`. */
export function processUnit(resource: Service | Timer): string {
  return resource.type === "timer" ? tendUnitName(resource.name, "service") : primaryUnit(resource);
}

/** `name@instance.type` (getty@tty1.service): a unit with no file of its own, only its template's. */
export function isInstance(unit: string): boolean {
  return /^[^@]+@[^@]+\.[a-z]+$/.test(unit);
}

/** The template an instance is made from (`getty@tty1.service` → `getty@.service`), or undefined. */
export function templateOf(unit: string): string | undefined {
  return isInstance(unit) ? unit.replace(/@[^@]+(\.[a-z]+)$/, "@$1") : undefined;
}

/** Every unit a removal stops and disables: tend's own; a distro unit is only disabled. */
export function ownedUnits(resource: Service | Timer): string[] {
  if (resource.type === "timer") return [tendUnitName(resource.name, "timer"), tendUnitName(resource.name, "service")];
  return resource.exec === undefined ? [] : [tendUnitName(resource.name, "service")];
}
