import type { Artifact, RenderContext, Resource } from "@tend/core/contract";
import { renderServiceUnit } from "./render-service-unit.js";
import { renderTimerUnits } from "./render-timer-units.js";
import { unitDirectory } from "./unit-directories.js";
import { tendUnitName } from "./unit-name.js";

/**
 * The files a resource becomes: a service's unit, a timer's `.service` then its `.timer`, and
 * nothing for a distro unit (tend never writes or changes the distro's files). systemd reads an
 * empty unit file as a mask: one found where a unit goes is the admin's, never written over.
 */
export function renderArtifacts(resource: Resource, ctx: RenderContext): Artifact[] {
  if (resource.type === "file" || resource.type === "package") return [];
  const dir = unitDirectory(resource, ctx);
  if (resource.type === "timer") {
    const units = renderTimerUnits(resource);
    return [
      { path: `${dir}/${tendUnitName(resource.name, "service")}`, content: units.service, mode: 0o644, masksWhenEmpty: true },
      { path: `${dir}/${tendUnitName(resource.name, "timer")}`, content: units.timer, mode: 0o644, masksWhenEmpty: true },
    ];
  }
  if (resource.exec === undefined) return [];
  return [{ path: `${dir}/${tendUnitName(resource.name, "service")}`, content: renderServiceUnit({ ...resource, exec: resource.exec }), mode: 0o644, masksWhenEmpty: true }];
}
