import type { Observation, Package, ReadContext, TendError } from "@tend/core/contract";
import { aptErrors } from "./apt-errors.js";
import { wantOf } from "./package-wants.js";
import { readPackages, type PackageReading } from "./read-packages.js";

const keyOf = (pkg: Package) => `package:${pkg.name}`;

/**
 * Each package as the host has it: `exists` when installed, its `version` (which the core records
 * to tell later upgrades), and drift when apt has something to do for it.
 */
export async function observePackages(packages: Package[], ctx: ReadContext): Promise<Map<string, Observation>> {
  return observationsFrom(packages, await readPackages(packages, ctx));
}

export function observationsFrom(packages: Package[], reading: PackageReading): Map<string, Observation> {
  const found = new Map<string, Observation>();
  for (const pkg of packages) {
    const installed = reading.installed.get(pkg.name);
    const offered = reading.offered.get(pkg.name);
    const version = installed?.installed ? installed.version : undefined;
    const want = reading.dpkg ? wantOf(pkg, installed, offered) : { kind: "ok" as const };
    found.set(keyOf(pkg), {
      exists: version !== undefined,
      ...(version !== undefined ? { version } : {}),
      drift: want.kind === "ok" ? [] : [want.why],
      details: {
        ...(installed ? { status: installed.status } : {}),
        ...(offered?.candidate ? { candidate: offered.candidate } : {}),
        ...(offered ? { offered: offered.versions.join(" ") } : {}),
        ...(reading.dpkg ? {} : { dpkg: false }),
      },
    });
  }
  return found;
}

/**
 * Fails the plan for what apt could never do: no dpkg here, a name the lists do not have, a
 * `version` they do not offer. Each error names the resource, and the field at fault. Reads only
 * the observations (no command of its own).
 */
export function checkPackages(packages: Package[], observations: Map<string, Observation>): TendError[] {
  const problems: TendError[] = [];
  for (const pkg of packages) {
    const seen = observations.get(keyOf(pkg));
    if (!seen) continue;
    if (seen.details?.dpkg === false) return [aptErrors.noDpkg(keyOf(pkg))];
    if ((seen.drift ?? []).length === 0 || (pkg.state ?? "present") === "absent") continue;
    const offered = typeof seen.details?.offered === "string" ? seen.details.offered.split(" ").filter(Boolean) : undefined;
    const candidate = seen.details?.candidate;
    if (offered === undefined || (offered.length === 0 && candidate === undefined)) problems.push(aptErrors.noPackage(keyOf(pkg), pkg.name));
    else if (pkg.version !== undefined && !offered.includes(pkg.version)) problems.push(aptErrors.noVersion(keyOf(pkg), pkg.version, offered));
  }
  return problems;
}
