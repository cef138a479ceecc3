import { existsSync, readFileSync } from "node:fs";
import { INITS, type InitName } from "../contract/host.js";
import { errors } from "../errors/catalogue.js";

const BY_PID1: Record<string, InitName> = {
  systemd: "systemd",
  runit: "runit",
  runsvdir: "runit",
  "s6-svscan": "s6",
  dinit: "dinit",
  "openrc-init": "openrc",
};

/** Parses `--init NAME` (case-insensitive). */
export function parseInit(name: string): InitName {
  const lower = name.toLowerCase();
  if (!(INITS as readonly string[]).includes(lower)) throw errors.unknownInit(name);
  return lower as InitName;
}

/**
 * The init running this host: macOS is launchd; on Linux, PID 1's name (systemd, runit,
 * s6-svscan, dinit), else OpenRC when `/run/openrc` exists. Undefined when none is recognised.
 */
export function detectInit(platform: string = process.platform, proc = "/proc/1/comm", openrcDir = "/run/openrc"): InitName | undefined {
  if (platform === "darwin") return "launchd";
  let comm = "";
  try {
    comm = readFileSync(proc, "utf8").trim();
  } catch {
    // unreadable: fall through to the other signs
  }
  const byName = BY_PID1[comm];
  if (byName) return byName;
  if (existsSync(openrcDir)) return "openrc";
  return undefined;
}
