import type { ReadContext } from "@tend/core/contract";
import { unitSearchPath } from "./unit-directories.js";

/**
 * Files tend did not write that change what systemd loads for one of tend's units: drop-ins
 * (`<unit>.d/*.conf`, and the prefix and type-wide ones systemd also applies: `tend-.service.d/`,
 * `service.d/`) in every folder the manager reads, and whole units of the same name in a folder it
 * reads before tend's (a `systemctl set-property` control folder, a transient or early generated
 * unit), which systemd loads instead of tend's. tend never writes or deletes them (they are the
 * admin's, or systemd's); plan reports them as warnings, since they change what runs without being
 * in the spec. One listing per folder, all asked at once, whatever the number of units.
 * The warnings by unit: units that replace it, then drop-ins, each in the manager's order.
 */
export async function findForeignUnitFiles(units: string[], ctx: ReadContext): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  if (units.length === 0) return found;
  const { folders, own } = unitSearchPath(ctx.scope);
  const listings = await Promise.all(folders.map((folder) => ctx.files.readDir(folder)));
  const dropIns: { unit: string; folder: string; dir: string }[] = [];
  folders.forEach((folder, at) => {
    const entries = new Set(listings[at] ?? []);
    if (entries.size === 0) return;
    for (const unit of units) {
      if (at < own && entries.has(unit)) add(found, unit, `${folder}/${unit} replaces it: systemd loads that file, not the one tend wrote; tend leaves it alone`);
      for (const dir of dropInNames(unit)) if (entries.has(dir)) dropIns.push({ unit, folder, dir });
    }
  });
  const confs = await Promise.all(dropIns.map(async ({ folder, dir }) => ((await ctx.files.readDir(`${folder}/${dir}`)) ?? []).filter((f) => f.endsWith(".conf"))));
  const paths = dropIns.flatMap(({ unit, folder, dir }, i) => confs[i]!.map((file) => ({ unit, path: `${folder}/${dir}/${file}` })));
  const texts = await Promise.all(paths.map(({ path }) => ctx.files.readFile(path)));
  paths.forEach(({ unit, path }, i) => {
    const directives = [...new Set((texts[i] ?? "").split("\n").map((line) => /^\s*([A-Za-z][A-Za-z0-9]*)\s*=/.exec(line)?.[1]).filter((d): d is string => d !== undefined))];
    add(found, unit, `${path} changes it${directives.length > 0 ? ` (${directives.join(", ")})` : ""}; tend leaves drop-ins alone`);
  });
  return found;
}

function add(found: Map<string, string[]>, unit: string, warning: string): void {
  found.set(unit, [...(found.get(unit) ?? []), warning]);
}

/** The drop-in folder names systemd applies to a unit: its own, its type's, each dash prefix's. */
function dropInNames(unit: string): string[] {
  const dot = unit.lastIndexOf(".");
  const name = unit.slice(0, dot);
  const type = unit.slice(dot + 1);
  const names = [`${unit}.d`, `${type}.d`];
  for (let at = name.indexOf("-"); at >= 0; at = name.indexOf("-", at + 1)) names.push(`${name.slice(0, at + 1)}.${type}.d`);
  return names;
}
