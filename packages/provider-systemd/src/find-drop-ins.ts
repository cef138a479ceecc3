import type { ReadContext } from "@tend/core/contract";
import { userUnitSearchPath } from "./unit-directories.js";

/** Every folder a system manager reads units and drop-ins from, highest priority first. */
const SYSTEM_SEARCH_PATH = ["/etc/systemd/system", "/run/systemd/system", "/usr/local/lib/systemd/system", "/usr/lib/systemd/system"];

/** A drop-in file systemd applies to one of tend's units, and the directives it sets. */
export interface DropIn {
  path: string;
  directives: string[];
}

/**
 * Drop-ins that change units tend writes: `<unit>.d/*.conf` in every folder the manager reads,
 * and the prefix and type-wide ones systemd also applies (`tend-.service.d/`, `service.d/`).
 * tend never writes or deletes them (they are the admin's); plan reports them, since they
 * change what runs without being in the spec. One listing per folder, whatever the number of units.
 */
export async function findDropIns(units: string[], ctx: ReadContext): Promise<Map<string, DropIn[]>> {
  const found = new Map<string, DropIn[]>();
  if (units.length === 0) return found;
  const home = ctx.scope.kind === "user" ? ctx.scope.home : ctx.host.home;
  const folders = ctx.scope.kind === "user" ? userUnitSearchPath(home) : SYSTEM_SEARCH_PATH;
  for (const folder of folders) {
    const entries = (await ctx.files.readDir(folder)) ?? [];
    const dropInDirs = new Set(entries.filter((name) => name.endsWith(".d")));
    if (dropInDirs.size === 0) continue;
    for (const unit of units) {
      for (const dir of dropInNames(unit)) {
        if (!dropInDirs.has(dir)) continue;
        for (const file of ((await ctx.files.readDir(`${folder}/${dir}`)) ?? []).filter((f) => f.endsWith(".conf"))) {
          const path = `${folder}/${dir}/${file}`;
          const text = (await ctx.files.readFile(path)) ?? "";
          const directives = [...new Set(text.split("\n").map((line) => /^\s*([A-Za-z][A-Za-z0-9]*)\s*=/.exec(line)?.[1]).filter((d): d is string => d !== undefined))];
          found.set(unit, [...(found.get(unit) ?? []), { path, directives }]);
        }
      }
    }
  }
  return found;
}

/** The drop-in folder names systemd applies to a unit: its own, each dash prefix's, its type's. */
function dropInNames(unit: string): string[] {
  const dot = unit.lastIndexOf(".");
  const name = unit.slice(0, dot);
  const type = unit.slice(dot + 1);
  const names = [`${unit}.d`, `${type}.d`];
  for (let at = name.indexOf("-"); at >= 0; at = name.indexOf("-", at + 1)) names.push(`${name.slice(0, at + 1)}.${type}.d`);
  return names;
}

/** The plan's wording for drop-ins on a unit. */
export function dropInWarnings(dropIns: DropIn[]): string[] {
  return dropIns.map((d) => `${d.path} changes it${d.directives.length > 0 ? ` (${d.directives.join(", ")})` : ""}; tend leaves drop-ins alone`);
}
