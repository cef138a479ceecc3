import type { ApplyContext, Command, Package, ResourceChange } from "@tend/core/contract";
import { aptErrors } from "./apt-errors.js";
import { dpkgQueryCommand, parseDpkgQuery } from "./dpkg-query.js";
import { wantOf, type Want } from "./package-wants.js";
import { readPackages } from "./read-packages.js";

export interface AptOptions {
  /** How long one apt-get may run before its process group is killed (default 15 minutes). */
  deadlineMs?: number;
  /** How long apt-get waits for another package manager's lock (default 120 s). */
  lockTimeoutSeconds?: number;
}

/** `apt-get install|remove -y`, never interactive: no prompt, no debconf question, the admin's config files kept. */
export function aptGetCommand(verb: "install" | "remove", args: string[], options: AptOptions = {}): Command {
  return {
    argv: [
      "apt-get",
      verb,
      "-y",
      "-q",
      ...(verb === "install" ? ["--allow-downgrades"] : []),
      "-o",
      "Dpkg::Options::=--force-confdef",
      "-o",
      "Dpkg::Options::=--force-confold",
      "-o",
      `DPkg::Lock::Timeout=${options.lockTimeoutSeconds ?? 120}`,
      ...args,
    ],
    env: { DEBIAN_FRONTEND: "noninteractive", APT_LISTCHANGES_FRONTEND: "none" },
    input: "",
    timeoutMs: options.deadlineMs ?? 15 * 60_000,
  };
}

/**
 * One wave of packages: one dpkg-query and one apt-cache policy to see what to do, one `apt-get
 * install` for everything to install or move to another version, one `apt-get remove` for
 * everything to be absent, then one dpkg-query to verify each package is as asked. When a batch
 * fails, its packages are retried one by one so the failure is pinned on the package at fault.
 */
export async function applyPackages(changes: ResourceChange<"package">[], ctx: ApplyContext, options: AptOptions = {}): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  const packages = changes.map((c) => c.resource);
  const reading = await readPackages(packages, ctx);
  if (!reading.dpkg) {
    for (const change of changes) failures.set(change.key, aptErrors.noDpkg(change.key));
    return failures;
  }
  const wants = new Map<string, { pkg: Package; want: Exclude<Want, { kind: "ok" }> }>();
  for (const change of changes) {
    const want = wantOf(change.resource, reading.installed.get(change.resource.name), reading.offered.get(change.resource.name));
    if (want.kind !== "ok") wants.set(change.key, { pkg: change.resource, want });
  }
  if (wants.size === 0) return failures;
  if (ctx.offline) {
    for (const [key, { want }] of wants) failures.set(key, aptErrors.offline(key, want.kind === "remove" ? "remove the package" : `install ${want.arg}`));
    return failures;
  }
  const installs = [...wants].filter(([, w]) => w.want.kind === "install");
  const removes = [...wants].filter(([, w]) => w.want.kind === "remove");
  await batchThenOneByOne(installs, (list) => aptGetCommand("install", list.map(([, w]) => (w.want as Extract<Want, { kind: "install" }>).arg), options), ctx, failures);
  await batchThenOneByOne(removes, (list) => aptGetCommand("remove", list.map(([, w]) => w.pkg.name), options), ctx, failures);

  const done = [...wants].filter(([key]) => !failures.has(key));
  if (done.length === 0) return failures;
  const after = parseDpkgQuery((await ctx.run.run(dpkgQueryCommand(done.map(([, w]) => w.pkg.name)))).stdout);
  for (const [key, { pkg, want }] of done) {
    const now = after.get(pkg.name);
    const have = now?.installed ? now.version : undefined;
    if (want.kind === "remove") {
      if (have !== undefined) failures.set(key, aptErrors.notAsAsked(key, `${have} is still installed`));
      else ctx.log(`${key}: removed`);
    } else if (have === undefined) failures.set(key, aptErrors.notAsAsked(key, `it is not installed (${now?.status ?? "unknown to dpkg"})`));
    else if (want.expect !== undefined && have !== want.expect) failures.set(key, aptErrors.notAsAsked(key, `${have} is installed, not ${want.expect}`));
    else ctx.log(`${key}: installed ${have}`);
  }
  return failures;
}

async function batchThenOneByOne<T>(items: [string, T][], command: (list: [string, T][]) => Command, ctx: ApplyContext, failures: Map<string, unknown>): Promise<void> {
  if (items.length === 0) return;
  try {
    await ctx.run.run(command(items));
    return;
  } catch (error) {
    if (items.length === 1) {
      failures.set(items[0]![0], error);
      return;
    }
  }
  for (const item of items) {
    try {
      await ctx.run.run(command([item]));
    } catch (error) {
      failures.set(item[0], error);
    }
  }
}
