import { TendError } from "@tend/core/contract";

/** A loaded unit as `systemctl list-units --all --output=json` reports it. */
export interface LoadedUnit {
  /** `loaded`, `not-found`, `masked`, `bad-setting`, `error`. */
  load: string;
  /** `active`, `inactive`, `failed`, `activating`, `deactivating`, `reloading`. */
  active: string;
  /** The type's own state: `running`, `exited`, `dead`, `auto-restart`, `waiting`, … */
  sub: string;
}

/** Parses `list-units --output=json`. Units systemd never loaded are absent from it. */
export function parseListUnits(json: string): Map<string, LoadedUnit> {
  const units = new Map<string, LoadedUnit>();
  for (const entry of parseJsonArray(json, "list-units")) {
    const { unit, load, active, sub } = entry as Record<string, unknown>;
    if (typeof unit !== "string" || typeof load !== "string" || typeof active !== "string" || typeof sub !== "string") {
      throw unexpected("list-units", JSON.stringify(entry));
    }
    units.set(unit, { load, active, sub });
  }
  return units;
}

/** The JSON array systemctl prints, or an error naming what came instead. */
export function parseJsonArray(json: string, verb: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw unexpected(verb, json.slice(0, 200));
  }
  if (!Array.isArray(parsed)) throw unexpected(verb, json.slice(0, 200));
  return parsed;
}

function unexpected(verb: string, what: string): TendError {
  return new TendError("TEND_SYSTEMD_OUTPUT", `\`systemctl ${verb} --output=json\` printed something tend cannot read: ${what}`, {
    hint: "tend needs systemd 246 or later, which prints unit lists as JSON",
  });
}
