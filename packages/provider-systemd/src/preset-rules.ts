import type { HostFiles } from "@tend/core/contract";
import { fnmatchPattern } from "./fnmatch-pattern.js";

/** The folders a system manager's presets are read from, first wins for a file name. */
const PRESET_DIRECTORIES = ["/etc/systemd/system-preset", "/run/systemd/system-preset", "/usr/local/lib/systemd/system-preset", "/usr/lib/systemd/system-preset", "/lib/systemd/system-preset"];

interface PresetRule {
  pattern: RegExp;
  action: "enabled" | "disabled";
}

/** The preset a unit name gets (`enabled` or `disabled`), what `list-unit-files` shows beside it. */
export type PresetLookup = (unit: string) => "enabled" | "disabled";

/**
 * The system presets of a root, read as systemd reads them: every `*.preset` file of the preset
 * folders (a name in an earlier folder hides the same name in a later one, a link to /dev/null
 * masks it), in the order of their names; each line `enable PATTERN` or `disable PATTERN`, `#`/`;` comments; the first rule
 * whose pattern matches a unit decides, no rule means enabled. Undefined when a file holds a line
 * this does not read the way the host's systemd might (another verb, such as `ignore`, or a
 * pattern it cannot match): the caller asks systemctl then.
 */
export async function readPresetRules(files: HostFiles): Promise<PresetLookup | undefined> {
  const chosen = new Map<string, string>();
  for (const dir of PRESET_DIRECTORIES) {
    for (const name of (await files.readDir(dir)) ?? []) {
      if (name.endsWith(".preset") && !chosen.has(name)) chosen.set(name, `${dir}/${name}`);
    }
  }
  const rules: PresetRule[] = [];
  for (const name of [...chosen.keys()].sort()) {
    const path = chosen.get(name)!;
    const text = await files.readFile(path);
    if (text === null) {
      // A link to /dev/null masks a file of that name; any other link or file is systemctl's to read.
      if ((await files.readLink(path)) === "/dev/null") continue;
      return undefined;
    }
    for (const raw of text.split("\n")) {
      const line = raw.trim();
      if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
      const rule = parseRule(line);
      if (!rule) return undefined;
      rules.push(rule);
    }
  }
  return (unit) => rules.find((rule) => rule.pattern.test(unit))?.action ?? "enabled";
}

function parseRule(line: string): PresetRule | undefined {
  const match = /^(enable|disable)\s+(\S+)$/.exec(line);
  const pattern = match ? fnmatchPattern(match[2]!) : undefined;
  if (!match || !pattern) return undefined;
  return { pattern, action: match[1] === "enable" ? "enabled" : "disabled" };
}
