import type { RenderContext, Resource, Service } from "@tend/core/contract";
import { afterUnits, RESTART } from "./render-service-unit.js";

type Hatch = NonNullable<Service["systemd"]>;

/**
 * What plan points out about a service's `systemd` hatch: a directive that replaces the lines
 * tend generated from another field (seed: a directive you set replaces the one tend generated
 * with the same name), so that field no longer has its effect. Naming both keeps a spec from
 * silently losing `env` to `systemd: {Environment: …}`. A directive tend generates from no field
 * (`Description=` from the name, `WantedBy=`) is the hatch's to set.
 */
export function hatchWarnings(resource: Resource, _ctx?: RenderContext): string[] {
  if (resource.type !== "service" || resource.exec === undefined || !resource.systemd) return [];
  const generated = generatedFrom(resource as Service & { exec: string });
  const warnings: string[] = [];
  for (const [path, section, key] of hatchPaths(resource.systemd)) {
    const field = generated.get(`${section}.${key}`);
    if (field) warnings.push(`\`systemd.${path}\` replaces the ${key}= line${field.count > 1 ? "s" : ""} tend generated from \`${field.name}\`; systemd gets only the hatch's value`);
  }
  return warnings;
}

/** The directives renderServiceUnit writes from spec fields, by `Section.Key`, with the field and how many lines. */
function generatedFrom(service: Service & { exec: string }): Map<string, { name: string; count: number }> {
  const found = new Map<string, { name: string; count: number }>();
  found.set("Service.ExecStart", { name: "exec", count: 1 });
  if (service.description) found.set("Unit.Description", { name: "description", count: 1 });
  if (afterUnits(service.after ?? []).length > 0) found.set("Unit.After", { name: "after", count: 1 });
  if (!service.user && service.after?.includes("network")) found.set("Unit.Wants", { name: "after", count: 1 });
  if (service.reloadSignal) found.set("Service.ExecReload", { name: "reloadSignal", count: 1 });
  if (RESTART[service.restart ?? "no"]) found.set("Service.Restart", { name: "restart", count: 1 });
  const env = Object.keys(service.env ?? {}).length;
  if (env > 0) found.set("Service.Environment", { name: "env", count: env });
  return found;
}

/** Each hatch directive as the spec spelled it (`Environment`, `unit.After`), with its section and key. */
function hatchPaths(hatch: Hatch): [path: string, section: string, key: string][] {
  const sections: Record<string, string> = { unit: "Unit", service: "Service", install: "Install" };
  const found: [string, string, string][] = [];
  for (const [key, value] of Object.entries(hatch)) {
    const section = sections[key];
    if (section && typeof value === "object" && !Array.isArray(value)) {
      for (const inner of Object.keys(value)) found.push([`${key}.${inner}`, section, inner]);
    } else {
      found.push([key, "Service", key]);
    }
  }
  return found;
}
