import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startHost, type TestHost } from "@tend/testkit/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../support/demo-daemon.js";
import { coreCopies, fillNpmCache, installedTend, installOffline, npmInHost, offlineMounts, packWorkspace, type Packed, IN_HOST } from "../support/packed-install.js";
import { doc, spec } from "../support/spec-documents.js";
import { blockCommands, docBlock, parseDocBlocks, type DocBlock } from "../../repo-checks/doc-blocks.js";

/**
 * Every package in packages/ as it would be published: packed (pnpm rewrites `workspace:` ranges),
 * each tarball checked for what its package.json promises, all of them installed together here
 * from npm's configured registry, and @tend/cli with the runit and cron providers installed from
 * the tarballs into a clean prefix on a runit host with cron and no network, where the installed
 * `tend` lists its providers, plans and applies a service and a timer.
 */

const runFile = promisify(execFile);
const PACKAGES = fileURLToPath(new URL("../../packages/", import.meta.url));
const SPEC = "/spec/tend.yaml";
const DOCS = [
  doc("type: Service\nname: web\nexec: /opt/demo/bin/demo web\nrestart: always"),
  doc('type: Timer\nname: rotate\nexec: /usr/bin/touch /var/tmp/rotated\nschedule: "*/5 * * * *"'),
];

const TYPESCRIPT = `typescript@${(JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { devDependencies: Record<string, string> }).devDependencies.typescript}`;

/** The README's npm command, split into its arguments after `npm`; checked to start as expected. */
function readmeNpm(block: DocBlock, start: string[]): string[] {
  const [command, ...more] = blockCommands(block);
  expect(more).toEqual([]);
  const words = command!.split(/\s+/);
  expect(words.slice(0, start.length)).toEqual(start);
  return words.slice(1);
}

const workspaceNames = readdirSync(PACKAGES)
  .map((dir) => JSON.parse(readFileSync(join(PACKAGES, dir, "package.json"), "utf8")) as { name: string; private?: boolean })
  .filter((pkg) => pkg.private !== true)
  .map((pkg) => pkg.name)
  .sort();

type Manifest = {
  name: string;
  exports?: unknown;
  bin?: Record<string, string>;
  types?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};

/** Every path an `exports` map names (the leaves of its conditions). */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === "string") return [exports];
  if (exports === null || typeof exports !== "object") return [];
  return Object.values(exports).flatMap(exportTargets);
}

const inTarball = async (tarball: string, path: string) => (await runFile("tar", ["-xOzf", tarball, `package/${path}`], { maxBuffer: 64 * 1024 * 1024 })).stdout;

describe("the packed packages, installed as from the registry", () => {
  let dir: string;
  let packed: Packed[];
  let hostPrefix: string;
  let host: TestHost;
  const tarball = (name: string) => packed.find((p) => p.name === name)!.tarball;
  /** `names` and the packages of this repo they depend on, as a registry would fetch them with them (the CLI's @tend/fleet). */
  const withDependencies = async (names: string[]): Promise<string[]> => {
    const all = new Set(names);
    for (const name of all) {
      const manifest = JSON.parse(await inTarball(tarball(name), "package.json")) as Manifest;
      for (const dep of Object.keys(manifest.dependencies ?? {})) if (workspaceNames.includes(dep)) all.add(dep);
    }
    return [...all];
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "tend-it-packaging-"));
    packed = await packWorkspace("./packages/*", dir);
    // typescript too: a spec folder type-checks its tend.config.ts below, as an editor would
    const filled = await fillNpmCache([...packed.map((p) => p.tarball), TYPESCRIPT]);
    hostPrefix = filled.prefix;
    host = await startHost("cron", { mounts: await offlineMounts(dir, filled.cache) });
    await host.writeFile("/opt/demo/bin/demo", DEMO, { mode: 0o755 });
  });

  afterAll(async () => {
    await host?.stop();
  });

  it("packs every package in packages/", () => {
    expect(packed.map((p) => p.name).sort()).toEqual(workspaceNames);
  });

  it("ships what each package.json points at, its README, no tests, and no workspace: range", async () => {
    for (const p of packed) {
      const manifest = JSON.parse(await inTarball(p.tarball, "package.json")) as Manifest;
      const shipped = new Set(p.files);
      const promised = [...exportTargets(manifest.exports), ...Object.values(manifest.bin ?? {}), ...(manifest.types ? [manifest.types] : [])];
      for (const target of promised) expect(shipped, `${p.name} ships ${target}`).toContain(target.replace(/^\.\//, ""));
      expect(shipped, `${p.name} ships a README`).toContain("README.md");
      expect(p.files.filter((f) => /\.test\.|__fixtures__|__golden__/.test(f)), `${p.name} ships no tests`).toEqual([]);
      const ranges = { ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies };
      expect(Object.entries(ranges).filter(([, range]) => range.startsWith("workspace:")), `${p.name} has no workspace: range`).toEqual([]);
    }
  });

  it("imports every dependency it declares from a shipped file", async () => {
    for (const p of packed) {
      const manifest = JSON.parse(await inTarball(p.tarball, "package.json")) as Manifest;
      // at run time, or in the types it ships (core bundles zod, and its .d.ts files name it)
      const code = (await Promise.all(p.files.filter((f) => f.endsWith(".js") || f.endsWith(".d.ts")).map((f) => inTarball(p.tarball, f)))).join("\n");
      for (const dep of Object.keys(manifest.dependencies ?? {})) {
        // imported, or required through createRequire(import.meta.url) (core requires jiti's CommonJS build)
        expect(new RegExp(`(?:from |import\\(|require\\(|\\(import\\.meta\\.url\\)\\()"${dep}(?:/[^"]*)?"`).test(code), `${p.name} uses its dependency ${dep}`).toBe(true);
      }
    }
  });

  it("ships source maps whose sources are inside them", async () => {
    for (const p of packed) {
      for (const map of p.files.filter((f) => f.endsWith(".map"))) {
        const { sources, sourcesContent } = JSON.parse(await inTarball(p.tarball, map)) as { sources: string[]; sourcesContent?: (string | null)[] };
        expect(sourcesContent?.length === sources.length && sourcesContent.every((s) => typeof s === "string"), `${p.name}: ${map} carries its sources`).toBe(true);
      }
    }
  });

  it("installs every tarball together, each dependency and peer resolved, each entry loading", async () => {
    await runFile("npm", ["ls", "--global", "--prefix", hostPrefix, "--all"]);
    // @tend/testkit's entries load only inside a vitest run (and its harness with testcontainers): they are resolved.
    const resolveOnly = ["@tend/testkit", "@tend/testkit/harness"];
    const entries = [...workspaceNames.filter((name) => name !== "@tend/cli" && name !== "@tend/testkit"), "@tend/core/contract"];
    const check = join(hostPrefix, "lib", "load-entries.mjs");
    await writeFile(
      check,
      `for (const name of ${JSON.stringify(entries)}) { const m = await import(name); console.log(name, Object.keys(m).length > 0, m.default?.apiVersion ?? "-"); }
for (const name of ${JSON.stringify(resolveOnly)}) console.log(name, "resolves to", import.meta.resolve(name));\n`,
    );
    const { stdout } = await runFile(process.execPath, [check]);
    for (const name of entries) expect(stdout).toMatch(new RegExp(`^${name} true (1|-)$`, "m"));
    for (const name of entries.filter((n) => n.startsWith("@tend/provider-"))) expect(stdout).toContain(`${name} true 1\n`);
    expect(stdout).toContain(`@tend/testkit resolves to file://${hostPrefix}/lib/node_modules/@tend/testkit/dist/index.js`);
    expect(stdout).toContain(`@tend/testkit/harness resolves to file://${hostPrefix}/lib/node_modules/@tend/testkit/dist/harness/index.js`);
    expect(await runFile(process.execPath, [join(hostPrefix, "bin", "tend"), "--version"]).then((r) => r.stdout.trim(), (e: Error) => e.message)).toMatch(/0\.1\.0/);
  });

  it("installs @tend/cli with the runit and cron providers offline into a clean prefix: one @tend/core", async () => {
    const names = ["@tend/core", "@tend/cli", "@tend/provider-runit", "@tend/provider-cron"];
    await installOffline(host, (await withDependencies(names)).map(tarball));
    expect(await coreCopies(host)).toEqual([`${IN_HOST.prefix}/lib/node_modules/@tend/core/package.json`]);
    const ls = await npmInHost(host, ["ls", "--global", "--prefix", IN_HOST.prefix, "--all"]);
    expect(ls.exitCode, ls.stdout + ls.stderr).toBe(0);
    expect(ls.stdout).toContain("@tend/core@0.1.0 deduped");
  });

  it("tend providers: runit's provider for services, cron's for timers", async () => {
    const output = await installedTend(host, ["providers"]);
    expect(output).toMatch(/^host init: runit$/m);
    expect(output).toMatch(/^\* @tend\/provider-runit@0\.1\.0 {2}service on runit; declares runit {2}\(api 1, tend's install\)$/m);
    expect(output).toMatch(/^\* @tend\/provider-cron@0\.1\.0 {2}timer on any init without them {2}\(api 1, tend's install\)$/m);
  });

  it("plans, applies and verifies a service and a timer, and then plans nothing", async () => {
    await host.writeFile(SPEC, spec(...DOCS));
    const planned = await installedTend(host, ["plan", "-f", SPEC, "--detailed-exitcode"], 2);
    expect(planned).toMatch(/^host \S+ \(runit\)$/m);
    expect(planned).toContain("+ service:web  /opt/demo/bin/demo web");
    expect(planned).toContain("+ timer:rotate  */5 * * * *  /usr/bin/touch /var/tmp/rotated");
    const applied = await installedTend(host, ["apply", "-f", SPEC]);
    expect(applied).toContain("service:web: verified");
    expect(await host.mustSh("sv status /etc/sv/tend-web")).toMatch(/^run: /);
    expect(await host.readFile("/etc/cron.d/tend-rotate")).toContain("*/5 * * * * root /usr/bin/touch /var/tmp/rotated");
    expect(await installedTend(host, ["plan", "-f", SPEC, "--detailed-exitcode"], 0)).toContain("0 to add, 0 to change, 0 to remove");
  });

  describe("the README's install lines", () => {
    const prefix = "/opt/readme-prefix";
    const inHost = (name: string) => `${IN_HOST.tarballs}/${basename(tarball(name))}`;

    it("npm install --global …: every package from its tarball, one @tend/core, a tend that finds its provider", async () => {
      const [install, global, ...names] = readmeNpm(docBlock("README.md", "install"), ["npm", "install", "--global"]);
      expect([install, global]).toEqual(["install", "--global"]);
      for (const name of names) expect(workspaceNames, `the README installs ${name}, a package of this repo`).toContain(name);
      const result = await npmInHost(host, ["install", "--global", "--prefix", prefix, ...(await withDependencies(names)).map(inHost)]);
      expect(result.exitCode, result.stdout + result.stderr).toBe(0);
      const copies = await host.mustExec(["find", prefix, "-path", "*/node_modules/@tend/core/package.json"]);
      expect(copies).toBe(`${prefix}/lib/node_modules/@tend/core/package.json\n`);
      const providers = await host.exec([`${prefix}/bin/tend`, "providers", "--init", "systemd"]);
      expect(providers.stdout).toMatch(/^\* @tend\/provider-systemd@\S+ {2}service, timer on systemd/m);
    });

    it("npm install --save-dev @tend/core: the spec's folder type-checks the README's spec, and a wrong value fails it", async () => {
      const [install, ...rest] = readmeNpm(docBlock("README.md", "types"), ["npm", "install", "--save-dev"]);
      expect([install, ...rest]).toEqual(["install", "--save-dev", "@tend/core"]);
      const ops = "/opt/ops";
      await host.writeFile(`${ops}/package.json`, '{ "name": "ops", "private": true, "type": "module" }\n');
      const added = await npmInHost(host, ["install", "--save-dev", "--prefix", ops, inHost("@tend/core"), TYPESCRIPT]);
      expect(added.exitCode, added.stdout + added.stderr).toBe(0);
      const readmeSpec = parseDocBlocks("README.md", readFileSync(new URL("../../README.md", import.meta.url), "utf8")).find((b) => b.kind === "spec" && b.lang === "ts")!;
      await host.writeFile(`${ops}/tend.config.ts`, readmeSpec.text);
      await host.writeFile(`${ops}/tsconfig.json`, JSON.stringify({ compilerOptions: { module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, noEmit: true }, include: ["tend.config.ts"] }));
      const tsc = ["node", `${ops}/node_modules/typescript/bin/tsc`, "-p", ops];
      const checked = await host.exec(tsc);
      expect(checked.exitCode, checked.stdout + checked.stderr).toBe(0);
      // the installed tend loads it with its own @tend/core
      expect((await host.exec([`${prefix}/bin/tend`, "validate", "-f", `${ops}/tend.config.ts`])).exitCode).toBe(0);
      await host.writeFile(`${ops}/tend.config.ts`, readmeSpec.text.replace('restart: "on_failure"', 'restart: "sometimes"'));
      const wrong = await host.exec(tsc);
      expect(wrong.exitCode).not.toBe(0);
      expect(wrong.stdout).toContain(`Type '"sometimes"' is not assignable to type`);
    });
  });
});
