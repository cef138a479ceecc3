import type { Package, ReadContext } from "@tend/core/contract";
import { aptPolicyCommand, parseAptPolicy, type Offered } from "./apt-policy.js";
import { dpkgQueryCommand, parseDpkgQuery, type Installed } from "./dpkg-query.js";

export interface PackageReading {
  /** False when the host (or root) has no dpkg database: nothing else was asked. */
  dpkg: boolean;
  installed: Map<string, Installed>;
  offered: Map<string, Offered>;
}

/**
 * What the host has and what its lists offer, for all packages at once: one `dpkg-query` and one
 * `apt-cache policy` (only for packages that are not to be absent), whatever their number.
 */
export async function readPackages(packages: Package[], ctx: ReadContext): Promise<PackageReading> {
  const empty: PackageReading = { dpkg: false, installed: new Map(), offered: new Map() };
  if (packages.length === 0) return { ...empty, dpkg: true };
  if (!(await ctx.files.exists("/var/lib/dpkg/status"))) return empty;
  const names = [...new Set(packages.map((p) => p.name))];
  const queried = await ctx.run.run(dpkgQueryCommand(names, ctx.root));
  const wanted = [...new Set(packages.filter((p) => p.state !== "absent").map((p) => p.name))];
  const offered = wanted.length > 0 ? parseAptPolicy((await ctx.run.run(aptPolicyCommand(wanted, ctx.root))).stdout) : new Map<string, Offered>();
  return { dpkg: true, installed: parseDpkgQuery(queried.stdout), offered };
}
