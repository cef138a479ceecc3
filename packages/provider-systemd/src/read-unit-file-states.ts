import { readdirSync } from "node:fs";
import type { HostFiles } from "@tend/core/contract";
import { hasInstallRules, parseInstallSection } from "./parse-install-section.js";
import type { UnitFile } from "./parse-list-unit-files.js";
import { readPresetRules } from "./preset-rules.js";
import { unitSearchPath } from "./unit-directories.js";

/** Where tend writes system units: the manager's persistent configuration. */
const CONFIG = "/etc/systemd/system";

/**
 * Every other folder of the search path, where a unit or link can change a tend unit's state in
 * ways this reader leaves to systemctl (control, transient, generated and runtime units, attached
 * images, vendor units): one that mentions tend (see mentionsTend) sends every unit to systemctl.
 * A booted host always has some of them, holding the distro's generated and transient units.
 * Debian's /lib/systemd/system too, read once when it is /usr/lib's.
 */
const ELSEWHERE = [...unitSearchPath({ kind: "system" }).folders.filter((dir) => dir !== CONFIG), "/lib/systemd/system"];

const TEND_UNIT = /^tend-[0-9A-Za-z:_.@\\-]*\.(service|socket|target|device|mount|automount|swap|timer|path|slice|scope)$/;
const LINK_FOLDER = /\.(wants|requires|upholds)$/;
/** A link in one of these is an `.upholds` one: systemd 252 does not count it, later releases may. */
const UPHOLDS = /\.upholds\/[^/]+$/;

/** tend's system units: the states read from the tree, and the units left to systemctl. */
export interface TreeUnitFiles {
  files: Map<string, UnitFile>;
  /** tend units whose state this reader does not decide (a link, a masked or unusual file). */
  unresolved: string[];
}

/**
 * tend's own system unit files (`tend-*`) and their states, as `systemctl list-unit-files`
 * reports them, read from the tree: in an image root, or on the host tend runs on (where the
 * manager's answer costs a process and, for N enabled units, N² link readings: systemd looks each
 * unit up in every `.wants`/`.requires`/`.upholds` folder; 10,000 units take half a minute in a
 * root, 200 on a live host ~150 ms). This reads every such folder once.
 *
 * It decides only the tree tend makes: a regular, non-empty unit file in /etc/systemd/system,
 * not a template, whose `[Install]` section is plain and names no `Alias=` or `Also=`, with no
 * `.upholds` link (releases count those differently). Such a unit is `enabled` when a link of its
 * name is in one of that folder's `.wants`/`.requires` folders, else `disabled` when `[Install]`
 * would link it, else `static`; its preset (for the first two) comes from the preset files. Any
 * other tend unit is left to systemctl (`unresolved`); and when anything could change the answer
 * for all of them (a runtime, control, generated, transient or attached unit folder or a vendor
 * folder that mentions a `tend-*` unit, a link to one under another name, a preset line it does
 * not read), the whole answer is: undefined.
 */
export async function readUnitFileStates(files: HostFiles): Promise<TreeUnitFiles | undefined> {
  const seen = new Set<string>();
  for (const dir of ELSEWHERE) {
    // /lib is often a link to /usr/lib: the same folder is read once.
    const real = files.local ? files.real(dir) : dir;
    if (seen.has(real)) continue;
    seen.add(real);
    if (await mentionsTend(dir, files)) return undefined;
  }
  const config = await readConfig(files);
  if (!config) return undefined;
  const preset = config.units.length > 0 ? await readPresetRules(files) : () => "enabled" as const;
  if (!preset) return undefined;
  const found = new Map<string, UnitFile>();
  const unresolved: string[] = [];
  const states = await Promise.all(config.units.map((unit) => stateOf(unit, config.linked, files)));
  config.units.forEach((unit, i) => {
    const state = states[i];
    if (state === undefined) unresolved.push(unit);
    else found.set(unit, { state, preset: state === "static" ? null : preset(unit) });
  });
  return { files: found, unresolved };
}

/** What a unit folder holds that concerns tend's units. */
interface FolderScan {
  /** Entries `isUnit` took as tend units. */
  units: string[];
  /** A link under another name to a `tend-*` file: that unit is `indirect` (or an alias), systemctl's call. */
  aliasesTend: boolean;
  /** Entries of the link folders (`*.wants`, `*.requires`, `*.upholds`) named `tend-*`, with the path of each. */
  linked: Map<string, string[]>;
}

/** A folder entry; its kind is known when the host's own folder was listed (HostFiles.local). */
interface Entry {
  name: string;
  kind: "link" | "folder" | "other" | "unknown";
}

/**
 * A folder's entries, sorted. On the host tend runs on, with their kinds from one listing (no
 * system call per entry: a vendor folder holds hundreds); elsewhere by name.
 */
async function listFolder(dir: string, files: HostFiles): Promise<Entry[]> {
  const byName = async () => ((await files.readDir(dir)) ?? []).map((name): Entry => ({ name, kind: "unknown" }));
  if (!files.local) return byName();
  let entries;
  try {
    entries = readdirSync(files.real(dir), { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    // Any other failure is HostFiles' to report, in its words.
    return byName();
  }
  return entries
    .map((entry): Entry => ({ name: entry.name, kind: entry.isSymbolicLink() ? "link" : entry.isDirectory() ? "folder" : "other" }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Reads a unit folder once: its tend units, links to them, and its link folders' `tend-*` entries. */
async function scanFolder(dir: string, files: HostFiles, isUnit: (entry: string) => boolean): Promise<FolderScan> {
  const scan: FolderScan = { units: [], aliasesTend: false, linked: new Map() };
  for (const { name: entry, kind } of await listFolder(dir, files)) {
    const path = `${dir}/${entry}`;
    if (isUnit(entry)) {
      scan.units.push(entry);
      continue;
    }
    const target = kind === "link" || kind === "unknown" ? await files.readLink(path) : null;
    if (target !== null) {
      if (baseName(target).startsWith("tend-")) scan.aliasesTend = true;
      continue;
    }
    if (!LINK_FOLDER.test(entry) || (kind !== "folder" && (kind !== "unknown" || !(await files.isDirectory(path))))) continue;
    for (const { name } of await listFolder(path, files)) {
      if (name.startsWith("tend-")) scan.linked.set(name, [...(scan.linked.get(name) ?? []), `${path}/${name}`]);
    }
  }
  return scan;
}

async function readConfig(files: HostFiles): Promise<FolderScan | undefined> {
  const scan = await scanFolder(CONFIG, files, (entry) => TEND_UNIT.test(entry) && entry.length < 256);
  return scan.aliasesTend ? undefined : scan;
}

async function stateOf(unit: string, linked: Map<string, string[]>, files: HostFiles): Promise<string | undefined> {
  if (unit.includes("@")) return undefined;
  const path = `${CONFIG}/${unit}`;
  const text = await files.readFile(path);
  // A link (masked, linked, an alias), a folder, or an empty file (masked): systemctl's call.
  if (text === null || text === "") return undefined;
  const install = parseInstallSection(text);
  if (!install.plain || install.alias.length > 0 || install.also.length > 0) return undefined;
  const links = linked.get(unit) ?? [];
  if (links.some((link) => UPHOLDS.test(link))) return undefined;
  if (links.length > 0) {
    // Only a link counts; a regular file of that name in a `.wants` folder is systemctl's call.
    const targets = await Promise.all(links.map((link) => files.readLink(link)));
    if (targets.some((target) => target === null)) return undefined;
    return "enabled";
  }
  return hasInstallRules(install) ? "disabled" : "static";
}

/** Whether a folder has a `tend-*` unit (or anything of such a name), a link to one, or one in its link folders. */
async function mentionsTend(dir: string, files: HostFiles): Promise<boolean> {
  const scan = await scanFolder(dir, files, (entry) => entry.startsWith("tend-"));
  return scan.units.length > 0 || scan.aliasesTend || scan.linked.size > 0;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
