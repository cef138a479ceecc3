import type { Command } from "@tend/core/contract";

/** What dpkg's database says of one package. */
export interface Installed {
  /** The version dpkg has (unpacked or installed); undefined when it has none. */
  version?: string;
  /** `db:Status-Abbrev`, e.g. `ii` (installed), `rc` (removed, config files left), `iU` (unpacked). */
  status: string;
  /** Installed and configured (status `i`, or only waiting for triggers). */
  installed: boolean;
}

const FORMAT = "${Package}\\t${Version}\\t${db:Status-Abbrev}\\n";

/**
 * One `dpkg-query -W` for every package: name, version and status a line. Under `--root` it reads
 * the root's database. A name dpkg never heard of is left out of the output (and makes the exit
 * code 1, which is not a failure here).
 */
export function dpkgQueryCommand(names: string[], root?: string): Command {
  return {
    argv: ["dpkg-query", ...(root ? [`--admindir=${root.replace(/\/$/, "")}/var/lib/dpkg`] : []), "-W", `-f=${FORMAT}`, ...names],
    okCodes: [0, 1],
    timeoutMs: 60_000,
  };
}

/** Parses dpkg-query's lines; of several architectures of one name, an installed one wins. */
export function parseDpkgQuery(stdout: string): Map<string, Installed> {
  const found = new Map<string, Installed>();
  for (const line of stdout.split("\n")) {
    if (line.trim() === "") continue;
    const [name = "", version = "", abbrev = ""] = line.split("\t");
    const status = abbrev.trim();
    const installed = /^.[iWt]/.test(status);
    const entry: Installed = { status, installed, ...(version !== "" && !/^.[nc]/.test(status) ? { version } : {}) };
    const before = found.get(name);
    if (!before || (!before.installed && installed)) found.set(name, entry);
  }
  return found;
}
