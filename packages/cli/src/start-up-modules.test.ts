import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const CLI = new URL("../dist/bin.js", import.meta.url).pathname;

/**
 * What a plan of the built CLI loads, seen through Node's module hooks (every ES module
 * and CommonJS file it loads, by URL): a provider is one file, and once a spec was validated a
 * second run loads neither zod nor the YAML parser.
 */
let dir: string;
let register: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tend-modules-"));
  await mkdir(join(dir, "cache"), { mode: 0o700 });
  await writeFile(join(dir, "hooks.mjs"), `import { appendFileSync } from "node:fs";\nexport async function load(url, context, next) { appendFileSync(process.env.TEND_TEST_MODULE_LOG, url + "\\n"); return next(url, context); }\n`);
  register = join(dir, "register.mjs");
  await writeFile(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(join(dir, "hooks.mjs")).href)});\n`);
  await writeFile(join(dir, "tend.yaml"), "tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web/bin/server\n");
  await writeFile(join(dir, "tend.config.ts"), `import { defineConfig, service } from "@tend/core";\nexport default defineConfig(() => [service("web", { exec: "/opt/web/bin/server" })]);\n`);
});

/** The files a run of the CLI with `args` loads (node's own built-ins left out). */
async function modulesOfRun(args: string[], name: string): Promise<string[]> {
  const log = join(dir, `${name}.log`);
  await writeFile(log, "");
  await run(process.execPath, ["--import", register, CLI, ...args], { env: { ...process.env, TEND_CACHE_DIR: join(dir, "cache"), TEND_TEST_MODULE_LOG: log } });
  return (await readFile(log, "utf8")).split("\n").filter((url) => url.startsWith("file:"));
}

/** The files a plan of `spec` loads (node's own built-ins left out). */
async function modulesOfPlan(spec: string, name: string): Promise<string[]> {
  const root = join(dir, `root-${name}`);
  await mkdir(join(root, "etc/runit/runsvdir/default"), { recursive: true });
  return modulesOfRun(["plan", "-f", join(dir, spec), "--init", "runit", "--root", root], name);
}

/** The loaded files whose text matches `pattern`. */
async function loadedWith(urls: string[], pattern: RegExp): Promise<string[]> {
  const found: string[] = [];
  for (const url of urls) if (pattern.test(await readFile(new URL(url), "utf8"))) found.push(url);
  return found;
}
const ZOD_OR_YAML = /class ZodError|ZodType\b|YAMLParseError/;
/** import-meta-resolve's and semver's own words. */
const RESOLVER_OR_SEMVER = /ERR_PACKAGE_PATH_NOT_EXPORTED|SEMVER_SPEC_VERSION/;

describe("what a run that needs no core loads", () => {
  it.each(["--version", "--help", "plan --help"])("tend %s: the CLI's one file, no part of core", async (line) => {
    const loaded = await modulesOfRun(line.split(" "), `no-core-${line.replace(/\W/g, "")}`);
    expect(loaded.map((url) => url.replace(/.*\/packages\//, ""))).toEqual(["cli/dist/bin.js"]);
  });
});

describe("what a plan loads", () => {
  it.each(["tend.yaml", "tend.config.ts"])("%s: a second run loads no zod, no YAML parser, no module resolver; runit's provider is one file", async (spec) => {
    const first = await modulesOfPlan(spec, `${spec}-1`);
    expect((await loadedWith(first, ZOD_OR_YAML)).length).toBeGreaterThan(0);
    const second = await modulesOfPlan(spec, `${spec}-2`);
    expect(await loadedWith(second, ZOD_OR_YAML)).toEqual([]);
    // The providers' entries are read from their package.json: no general resolver, no semver.
    expect(await loadedWith(second, RESOLVER_OR_SEMVER)).toEqual([]);
    expect(second.filter((url) => url.includes("/provider-runit/")).map((url) => url.replace(/.*\/provider-runit\//, ""))).toEqual(["dist/index.js"]);
    // Core is one bundle of its runtime entry and the few chunks it shares with what loads
    // lazily; `contract` (what the providers import) re-exports from it: no chunk per set of
    // entries sharing code (there were ten files).
    const core = second.filter((url) => url.includes("/core/dist/")).map((url) => url.replace(/.*\/core\/dist\//, ""));
    expect(core).toContain("runtime.js");
    expect(core).toContain("contract/index.js");
    expect(core.length).toBeLessThanOrEqual(5);
  });
});

/**
 * What a run of the built CLI saw of itself at its exit: `seen`, a JavaScript expression that
 * may use `required` (the CommonJS files loaded, by path), evaluated in a module run before the
 * CLI and written as JSON. `ROOT` in `args` is an empty runit image root of the run's own.
 */
async function seenAtExit<T>(args: string[], name: string, seen: string, cache = join(dir, "cache")): Promise<T> {
  const log = join(dir, `${name}.seen`);
  const probe = join(dir, `probe-${name}.mjs`);
  await writeFile(
    probe,
    `import { writeFileSync } from "node:fs";\nimport { createRequire } from "node:module";\nconst required = createRequire(import.meta.url).cache;\nprocess.on("exit", () => writeFileSync(process.env.TEND_TEST_SEEN_LOG, JSON.stringify(${seen})));\n`,
  );
  const root = join(dir, `root-${name}`);
  await mkdir(join(root, "etc/runit/runsvdir/default"), { recursive: true });
  await run(process.execPath, ["--import", probe, CLI, ...args.map((arg) => arg.replace("ROOT", root))], { env: { ...process.env, TEND_CACHE_DIR: cache, TEND_TEST_SEEN_LOG: log } });
  return JSON.parse(await readFile(log, "utf8")) as T;
}

describe("what a run that starts no process loads", () => {
  /** Whether Node's child_process (with net, dgram and their streams, ~6 ms) was loaded by this run of the CLI. */
  const loadsChildProcess = (args: string[], name: string) => seenAtExit<boolean>(args, name, `process.moduleLoadList.includes("NativeModule child_process")`);

  it("--help, validate and a plan on runit load no child_process; an apply, which takes the lock with a process, does", async () => {
    const spec = join(dir, "tend.yaml");
    expect(await loadsChildProcess(["--help"], "help")).toBe(false);
    expect(await loadsChildProcess(["validate", "-f", spec], "validate")).toBe(false);
    expect(await loadsChildProcess(["plan", "-f", spec, "--init", "runit", "--root", "ROOT"], "plan")).toBe(false);
    expect(await loadsChildProcess(["apply", "-f", spec, "--init", "runit", "--root", "ROOT"], "apply")).toBe(true);
  });
});

describe("what a plan of an unchanged tend.config.ts loads", () => {
  /** The files of jiti (the TypeScript loader, ~20 ms) that a plan of `spec` required. */
  const jitiFilesOfPlan = async (spec: string, cache: string, name: string) =>
    (await seenAtExit<string[]>(["plan", "-f", spec, "--init", "runit", "--root", "ROOT"], name, "Object.keys(required)", cache)).filter((file) => file.includes("/jiti/"));

  it("the first run transpiles it with jiti; the next evaluates the code kept in the cache and loads no jiti; an edit brings jiti back once", async () => {
    const cache = join(dir, "cache-ts");
    await mkdir(cache, { mode: 0o700 });
    const spec = join(dir, "unchanged", "tend.config.ts");
    await mkdir(join(dir, "unchanged"));
    await writeFile(spec, `import { defineConfig, service } from "@tend/core";\nexport default defineConfig(() => [service("web", { exec: "/opt/web/bin/server" })]);\n`);
    expect((await jitiFilesOfPlan(spec, cache, "ts-1")).length).toBeGreaterThan(0);
    expect(await jitiFilesOfPlan(spec, cache, "ts-2")).toEqual([]);
    await writeFile(spec, `import { defineConfig, service } from "@tend/core";\nexport default defineConfig(() => [service("web", { exec: "/opt/web/bin/server --edited" })]);\n`);
    expect((await jitiFilesOfPlan(spec, cache, "ts-3")).length).toBeGreaterThan(0);
    expect(await jitiFilesOfPlan(spec, cache, "ts-4")).toEqual([]);
  });
});

describe("what a plan of an edited tend.yaml loads", () => {
  it("a document removed: no YAML parser and no zod (every document left was valid before); one edited: both", async () => {
    const doc = (name: string, exec: string) => `tend: v1alpha1\ntype: Service\nname: ${name}\nexec: ${exec}\n`;
    await writeFile(join(dir, "edited.yaml"), [doc("web", "/opt/web/bin/server"), doc("db", "/opt/db/bin/db"), doc("api", "/opt/api/bin/api")].join("---\n"));
    await modulesOfPlan("edited.yaml", "edited-1");
    await writeFile(join(dir, "edited.yaml"), [doc("web", "/opt/web/bin/server"), doc("api", "/opt/api/bin/api")].join("---\n"));
    expect(await loadedWith(await modulesOfPlan("edited.yaml", "edited-2"), ZOD_OR_YAML)).toEqual([]);
    await writeFile(join(dir, "edited.yaml"), [doc("web", "/opt/web/bin/server --port 9"), doc("api", "/opt/api/bin/api")].join("---\n"));
    expect((await loadedWith(await modulesOfPlan("edited.yaml", "edited-3"), ZOD_OR_YAML)).length).toBeGreaterThan(0);
  });
});

describe("what core's bundle carries", () => {
  it("zod without its 40 translations (a namespace import lets esbuild leave out what is unused)", async () => {
    const chunks = new URL("../../core/dist/chunks/", import.meta.url);
    const texts = await Promise.all((await readdir(chunks)).filter((name) => name.endsWith(".js")).map((name) => readFile(new URL(name, chunks), "utf8")));
    const zod = texts.filter((text) => text.includes("class ZodError") || text.includes("ZodError"));
    expect(zod.length).toBeGreaterThan(0);
    expect(texts.filter((text) => text.includes("Ungültige Eingabe"))).toEqual([]);
    expect(Math.max(...zod.map((text) => text.length))).toBeLessThan(250_000);
  });
});
