import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { StartHostOptions, TestHost } from "@tend/testkit/harness";

/**
 * Installing tend as a user does, from packed tarballs, on a test host that has no network and no
 * npm: the packages are packed here (pnpm rewrites `workspace:` ranges as publishing does; a
 * standalone package is packed with npm as its author would), an npm cache is filled here by
 * installing every tarball into a throwaway prefix through npm's own configured registry, and the
 * host runs this machine's npm (mounted) against a copy of that cache with `--offline`.
 */

const runFile = promisify(execFile);
const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** Where the pieces of an offline install are mounted in a test host, and where tend goes. */
export const IN_HOST = { tarballs: "/opt/tarballs", cache: "/opt/npm-cache", npm: "/opt/npm", prefix: "/opt/prefix" } as const;

/** The installed CLI inside the host. */
export const INSTALLED_TEND = `${IN_HOST.prefix}/bin/tend`;

/** One packed package: its name, version, tarball on this machine and the paths inside it. */
export interface Packed {
  name: string;
  version: string;
  tarball: string;
  files: string[];
}

/** The packages under packages/ matching `filter` (`./packages/*`), packed with the repo's pnpm into `dest`. */
export async function packWorkspace(filter: string, dest: string): Promise<Packed[]> {
  const { packageManager } = JSON.parse(await readFile(join(REPO, "package.json"), "utf8")) as { packageManager: string };
  const { stdout } = await runFile("npx", ["--yes", packageManager, "--filter", filter, "--recursive", "pack", "--pack-destination", dest, "--json"], {
    cwd: REPO,
    maxBuffer: 64 * 1024 * 1024,
  });
  const packed = JSON.parse(stdout) as { name: string; version: string; filename: string; files: { path: string }[] }[];
  return packed.map((p) => ({ name: p.name, version: p.version, tarball: p.filename, files: p.files.map((f) => f.path) }));
}

/** A standalone package folder (not a workspace member), packed with `npm pack` as it is. */
export async function npmPack(dir: string, dest: string): Promise<Packed> {
  const { stdout } = await runFile("npm", ["pack", "--json", "--pack-destination", dest], { cwd: dir });
  const [packed] = JSON.parse(stdout) as { name: string; version: string; filename: string; files: { path: string }[] }[];
  return { name: packed!.name, version: packed!.version, tarball: join(dest, packed!.filename), files: packed!.files.map((f) => f.path) };
}

/**
 * An npm cache holding everything the tarballs need: they are installed together into a throwaway
 * global prefix, through npm's configured registry (a cache kept in $TMPDIR/tend-it-npm-cache
 * across runs, so a second run mostly reads it), then that cache is copied for the test host,
 * whose npm writes into the cache it installs from. Throws with npm's output when the install
 * fails: a tarball whose dependencies do not resolve.
 */
export async function fillNpmCache(tarballs: string[]): Promise<{ cache: string; prefix: string }> {
  const shared = process.env.TEND_IT_NPM_CACHE ?? join(tmpdir(), "tend-it-npm-cache");
  const work = await mkdtemp(join(tmpdir(), "tend-it-npm-"));
  const prefix = join(work, "prefix");
  const args = ["install", "--global", "--prefix", prefix, "--cache", shared, "--prefer-offline", "--no-audit", "--no-fund", "--no-update-notifier", ...tarballs];
  try {
    await runFile("npm", args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`npm ${args.join(" ")} failed on this machine:\n${e.stdout ?? ""}${e.stderr ?? e.message}`, { cause: error });
  }
  const cache = join(work, "cache");
  await mkdir(cache);
  await cp(join(shared, "_cacache"), join(cache, "_cacache"), { recursive: true });
  return { cache, prefix };
}

/** The mounts startHost needs for {@link installOffline}: the tarballs, the cache, and this machine's npm. */
export async function offlineMounts(tarballDir: string, cache: string): Promise<NonNullable<StartHostOptions["mounts"]>> {
  const { stdout } = await runFile("npm", ["root", "--global"]);
  return [
    { source: tarballDir, target: IN_HOST.tarballs, readOnly: true },
    { source: cache, target: IN_HOST.cache },
    { source: join(stdout.trim(), "npm"), target: IN_HOST.npm, readOnly: true },
  ];
}

/** npm run inside the host with the mounted node: offline, from the mounted cache, logs kept inside. */
export function npmInHost(host: TestHost, args: string[]) {
  return host.exec(["node", `${IN_HOST.npm}/bin/npm-cli.js`, ...args, "--offline", "--cache", IN_HOST.cache, "--logs-dir", "/tmp/npm-logs", "--no-audit", "--no-fund", "--no-update-notifier"], {
    timeoutMs: 300_000,
  });
}

/** `npm install --global --prefix /opt/prefix` of the given tarballs inside the host; resolves with npm's output. */
export async function installOffline(host: TestHost, tarballs: string[]): Promise<string> {
  const paths = tarballs.map((tarball) => `${IN_HOST.tarballs}/${basename(tarball)}`);
  const result = await npmInHost(host, ["install", "--global", "--prefix", IN_HOST.prefix, ...paths]);
  const output = `${result.stdout}${result.stderr}`;
  if (result.exitCode !== 0) throw new Error(`the offline npm install exited ${result.exitCode} on the ${host.name} host:\n${output}`);
  return output;
}

/** Every copy of `@tend/core` under the prefix, by its package.json. */
export async function coreCopies(host: TestHost): Promise<string[]> {
  const found = await host.mustExec(["find", IN_HOST.prefix, "-path", "*/node_modules/@tend/core/package.json"]);
  return found.split("\n").filter(Boolean).sort();
}

/**
 * The installed `tend` (as root) with `args`, which must exit `exitCode`; resolves with its stdout
 * and stderr. On another exit, throws with both and the host's logs.
 */
export async function installedTend(host: TestHost, args: string[], exitCode = 0): Promise<string> {
  const result = await host.exec([INSTALLED_TEND, ...args], { env: { NO_COLOR: "1" } });
  const output = `${result.stdout}${result.stderr}`;
  if (result.exitCode !== exitCode) {
    throw new Error(`\`tend ${args.join(" ")}\` (installed) exited ${result.exitCode}, not ${exitCode}, on the ${host.name} host\n${output}\n${await host.logs()}`);
  }
  return output;
}
