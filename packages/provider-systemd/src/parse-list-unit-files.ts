import { parseJsonArray } from "./parse-list-units.js";

/** A unit file as `systemctl list-unit-files --output=json` reports it. */
export interface UnitFile {
  /** `enabled`, `disabled`, `static`, `masked`, `indirect`, `generated`, `alias`, `linked`, … */
  state: string;
  /** The distro's preset (`enabled`, `disabled`), null for units that cannot be enabled. */
  preset: string | null;
}

/** Parses `list-unit-files --output=json`, which also works offline under `--root`. */
export function parseListUnitFiles(json: string): Map<string, UnitFile> {
  const files = new Map<string, UnitFile>();
  for (const entry of parseJsonArray(json, "list-unit-files")) {
    const { unit_file: unit, state, preset } = entry as Record<string, unknown>;
    if (typeof unit !== "string" || typeof state !== "string") continue;
    files.set(unit, { state, preset: typeof preset === "string" ? preset : null });
  }
  return files;
}
