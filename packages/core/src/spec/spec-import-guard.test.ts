import fs, { existsSync, readFileSync } from "node:fs";
import { Module } from "node:module";
import { chmod, chown, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContentCache } from "../cache/content-cache.js";
import type { HostFacts } from "../contract/host.js";
import type { TendError } from "../errors/tend-error.js";
import { openSpec } from "./load-spec.js";

const HOST: HostFacts = { name: "h", init: "runit", os: "linux", arch: "x64", user: "root", home: "/root" };

/** A folder of files, root's and 0755 (mkdtemp makes it 0700), beside a marker each module that runs writes. */
async function project(files: Record<string, string>): Promise<{ dir: string; ran: (name: string) => boolean }> {
  const dir = await mkdtemp(join(tmpdir(), "tend-spec-imports-"));
  await chmod(dir, 0o755);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, ".."), { recursive: true });
    await writeFile(join(dir, name), text.replaceAll("MARK", join(dir, "ran")));
  }
  await mkdir(join(dir, "ran"));
  return { dir, ran: (name) => existsSync(join(dir, "ran", name)) };
}

/** A module's text that leaves its mark when it runs (`name`), then exports `value`. */
const marking = (name: string, value = "1") => `import { writeFileSync } from "node:fs";\nwriteFileSync("MARK/${name}", "");\nexport default ${value};\n`;

const failure = async (file: string, cache?: ContentCache) => (await openSpec(file, cache ? { cache } : {}).then((opened) => opened.build(HOST)).then(() => undefined, (e: unknown) => e)) as TendError | undefined;

const SPEC = `import helper from "./lib/helper.ts";\nexport default [{ type: "file", name: "motd", path: "/etc/motd", content: String(helper) }];\n`;

describe.runIf(process.getuid?.() === 0)("a module spec's imports, as root", () => {
  it("loads its own files when they are root's, and refuses one another user could change before it runs, loaded anew and from the cache", async () => {
    const { dir, ran } = await project({ "tend.config.ts": SPEC, "lib/helper.ts": marking("helper", "42") });
    const spec = join(dir, "tend.config.ts");
    const cache = ContentCache.open({ TEND_CACHE_DIR: join(dir, "cache") })!;
    const built = await openSpec(spec, { cache }).then((opened) => opened.build(HOST));
    expect(built.resources[0]).toMatchObject({ content: "42" });
    expect(ran("helper")).toBe(true);
    const helper = join(dir, "lib", "helper.ts");
    await writeFile(helper, marking("helper2", "43").replaceAll("MARK", join(dir, "ran")));
    for (const [change, why] of [
      [() => chown(helper, 65534, 65534), `${helper} belongs to uid 65534, who could change what root would run`],
      [() => chown(helper, 0, 0).then(() => chmod(helper, 0o664)), `${helper} is writable by its group, who could change what root would run`],
      [() => chmod(helper, 0o644).then(() => chmod(join(dir, "lib"), 0o777)), `${join(dir, "lib")} is writable by every user, who could change what root would run`],
    ] as const) {
      await change();
      // The spec's own text is unchanged: the second time its transpiled code comes from the cache.
      for (const from of [undefined, cache, cache]) {
        expect(await failure(spec, from)).toMatchObject({ code: "TEND_SPEC", message: `refusing to load ${helper} as root for ${spec}: ${why}`, location: { file: spec } });
      }
      expect(ran("helper2")).toBe(false);
    }
    await chmod(join(dir, "lib"), 0o755);
    expect((await openSpec(spec, { cache }).then((opened) => opened.build(HOST))).resources[0]).toMatchObject({ content: "43" });
  });

  it("refuses it where the spec catches the refusal, and in what the spec imports while it builds its list", async () => {
    const { dir, ran } = await project({
      "caught.ts": `let v = 0;\ntry { v = (await import("./evil.ts")).default; } catch {}\nexport default [{ type: "file", name: "motd", path: "/etc/motd", content: String(v) }];\n`,
      "later.ts": `export default async () => [{ type: "file", name: "motd", path: "/etc/motd", content: String((await import("./evil.ts")).default) }];\n`,
      "evil.ts": marking("evil"),
    });
    await chown(join(dir, "evil.ts"), 65534, 65534);
    for (const spec of ["caught.ts", "later.ts"]) {
      const error = await failure(join(dir, spec));
      expect(error?.message, spec).toBe(`refusing to load ${join(dir, "evil.ts")} as root for ${join(dir, spec)}: ${join(dir, "evil.ts")} belongs to uid 65534, who could change what root would run`);
    }
    expect(ran("evil")).toBe(false);
  });

  it("refuses a module deep inside a package, ES module or CommonJS, that Node loads itself", async () => {
    const pkg = (name: string, type: "module" | "commonjs", inner: string) =>
      type === "module"
        ? {
            [`node_modules/${name}/package.json`]: `{ "name": "${name}", "type": "module", "exports": "./index.js" }`,
            [`node_modules/${name}/index.js`]: `import inner from "./inner.js";\nexport default inner;\n`,
            [`node_modules/${name}/inner.js`]: marking(inner, "7"),
          }
        : {
            [`node_modules/${name}/package.json`]: `{ "name": "${name}", "main": "./index.cjs" }`,
            [`node_modules/${name}/index.cjs`]: `module.exports = require("./inner.cjs");\n`,
            [`node_modules/${name}/inner.cjs`]: `require("node:fs").writeFileSync("MARK/${inner}", "");\nmodule.exports = 8;\n`,
          };
    const using = (name: string) => `import dep from "${name}";\nexport default [{ type: "file", name: "motd", path: "/etc/motd", content: String(dep) }];\n`;
    // Node keeps a module it has loaded for the process: each case has a package of its own.
    const { dir, ran } = await project({
      ...pkg("esm-ok", "module", "esm-ok"),
      ...pkg("esm-bad", "module", "esm-bad"),
      ...pkg("cjs-ok", "commonjs", "cjs-ok"),
      ...pkg("cjs-bad", "commonjs", "cjs-bad"),
      ...Object.fromEntries(["esm-ok", "esm-bad", "cjs-ok", "cjs-bad"].map((name) => [`${name}.ts`, using(name)])),
    });
    expect((await openSpec(join(dir, "esm-ok.ts")).then((o) => o.build(HOST))).resources[0]).toMatchObject({ content: "7" });
    expect((await openSpec(join(dir, "cjs-ok.ts")).then((o) => o.build(HOST))).resources[0]).toMatchObject({ content: "8" });
    expect([ran("esm-ok"), ran("cjs-ok")]).toEqual([true, true]);
    const esmInner = join(dir, "node_modules/esm-bad/inner.js");
    const cjsInner = join(dir, "node_modules/cjs-bad/inner.cjs");
    await chmod(esmInner, 0o666);
    await chmod(cjsInner, 0o666);
    expect((await failure(join(dir, "esm-bad.ts")))?.message).toBe(`refusing to load ${esmInner} as root for ${join(dir, "esm-bad.ts")}: ${esmInner} is writable by every user, who could change what root would run`);
    expect((await failure(join(dir, "cjs-bad.ts")))?.message).toBe(`refusing to load ${cjsInner} as root for ${join(dir, "cjs-bad.ts")}: ${cjsInner} is writable by every user, who could change what root would run`);
    expect([ran("esm-bad"), ran("cjs-bad")]).toEqual([false, false]);
  });

  it("checks a native addon before Node loads it", async () => {
    // Not a real addon: a trusted one reaches dlopen, which refuses its bytes; another user's never does.
    const { dir } = await project({
      "tend.config.ts": `import { createRequire } from "node:module";\nconst addon = createRequire(import.meta.url)("./addon.node");\nexport default [{ type: "file", name: "motd", path: "/etc/motd", content: String(addon) }];\n`,
      "addon.node": "not an ELF file\n",
    });
    const spec = join(dir, "tend.config.ts");
    expect((await failure(spec))?.message).toMatch(/invalid ELF header|file too short/);
    await chown(join(dir, "addon.node"), 65534, 65534);
    expect((await failure(spec))?.message).toBe(`refusing to load ${join(dir, "addon.node")} as root for ${spec}: ${join(dir, "addon.node")} belongs to uid 65534, who could change what root would run`);
  });

  it("leaves Node's readFileSync, CommonJS compile and dlopen as they were once the spec is loaded, and the code's own reads of data files alone", async () => {
    const { dir } = await project({
      "tend.config.ts": `import { readFileSync } from "node:fs";\nexport default [{ type: "file", name: "motd", path: "/etc/motd", content: readFileSync(${JSON.stringify("DATA")}, "utf8") }];\n`,
    });
    const data = join(dir, "motd.txt");
    await writeFile(data, "hello");
    await chown(data, 65534, 65534);
    await writeFile(join(dir, "tend.config.ts"), readFileSync(join(dir, "tend.config.ts"), "utf8").replace("DATA", data));
    const before = [fs.readFileSync, Module.prototype._compile, process.dlopen];
    expect((await openSpec(join(dir, "tend.config.ts")).then((o) => o.build(HOST))).resources[0]).toMatchObject({ content: "hello" });
    expect([fs.readFileSync, Module.prototype._compile, process.dlopen]).toEqual(before);
  });
});
