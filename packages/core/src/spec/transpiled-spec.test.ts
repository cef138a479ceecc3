import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HostFacts } from "../contract/host.js";
import { ContentCache } from "../cache/content-cache.js";
import { TendError } from "../errors/tend-error.js";
import { openSpec } from "./load-spec.js";

const HOST: HostFacts = { name: "h", init: "runit", os: "linux", arch: "x64", user: "root", home: "/root" };

/** A folder holding `files`; the spec is its tend.config.ts. */
async function specFolder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "tend-transpiled-"));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}
const load = async (file: string, cache: ContentCache) => (await openSpec(file, { cache })).build(HOST);
const freshCache = async () => ContentCache.open({ TEND_CACHE_DIR: join(await mkdtemp(join(tmpdir(), "tend-transpiled-cache-")), "cache") })!;
const kept = (cache: ContentCache) => {
  try {
    return readdirSync(join(cache.dir, "spec-modules")).map((name) => join(cache.dir, "spec-modules", name));
  } catch {
    return [];
  }
};

/** A spec that reports, in its services' descriptions, what each of its kinds of import gave it. */
const WIDE_SPEC = {
  "tend.config.ts": `import os, { hostname } from "node:os";
import * as path from "node:path";
import fs from "fs";
import core, * as whole from "@tend/core";
import { defineConfig, service } from "@tend/core";
import { MANAGED_HEADER } from "@tend/core/contract";
import { helper } from "./helper.ts";
import data from "./data.json";
type Fact = [string, unknown];
const cjs = require("./plain.cjs");
const dynamic = await import("./dynamic.ts");
const facts: Fact[] = [
  ["os default", typeof os.hostname === "function" && os.hostname === hostname],
  ["path namespace", path.join("a", "b")],
  ["fs default", typeof fs.readFileSync],
  ["core default", core.service === service],
  ["core namespace", whole.service === service && typeof whole.defineConfig],
  ["contract", MANAGED_HEADER.length > 0],
  ["helper", helper(2)],
  ["json", data.port],
  ["cjs", cjs.answer],
  ["dynamic", dynamic.default],
  ["meta", import.meta.url.endsWith("/tend.config.ts") && __filename.endsWith("/tend.config.ts")],
  ["module", module.filename === __filename],
];
export default defineConfig((host) => facts.map(([name, value], i) => service("fact" + i, { exec: "/bin/true", description: name + "=" + JSON.stringify(value) + "@" + host.init })));
`,
  "helper.ts": `export const helper = (n: number): number => n * 21;\n`,
  "data.json": `{ "port": 8080 }\n`,
  "plain.cjs": `module.exports = { answer: "cjs" };\n`,
  "dynamic.ts": `const value: string = "dynamic";\nexport default value;\n`,
};

describe("a TypeScript spec evaluated from its transpiled code in tend's cache", () => {
  it("gives the spec the same modules, whichever way it was loaded: core, built-ins, its own files, JSON, CommonJS, import.meta", async () => {
    const dir = await specFolder(WIDE_SPEC);
    const cache = await freshCache();
    const descriptions = async () => (await load(join(dir, "tend.config.ts"), cache)).resources.map((r) => (r as { description?: string }).description);
    const cold = await descriptions();
    expect(kept(cache)).toHaveLength(1);
    const warm = await descriptions();
    expect(warm).toEqual(cold);
    expect(cold).toEqual([
      "os default=true@runit",
      `path namespace="a/b"@runit`,
      `fs default="function"@runit`,
      "core default=true@runit",
      `core namespace="function"@runit`,
      "contract=true@runit",
      "helper=42@runit",
      "json=8080@runit",
      `cjs="cjs"@runit`,
      `dynamic="dynamic"@runit`,
      "meta=true@runit",
      "module=true@runit",
    ]);
  });

  it("evaluates the code it kept (not jiti's), and transpiles a spec again once its text changes", async () => {
    const dir = await specFolder({ "tend.config.ts": `import { service } from "@tend/core";\nconst exec: string = "/bin/one";\nexport default [service("web", { exec })];\n` });
    const file = join(dir, "tend.config.ts");
    const cache = await freshCache();
    const exec = async () => ((await load(file, cache)).resources[0] as { exec: string }).exec;
    expect(await exec()).toBe("/bin/one");
    const [entry] = kept(cache);
    // The kept code, altered by hand: a run that evaluates it says so.
    writeFileSync(entry!, readFileSync(entry!, "utf8").replace("/bin/one", "/bin/kept"));
    expect(await exec()).toBe("/bin/kept");
    await writeFile(file, `import { service } from "@tend/core";\nconst exec: string = "/bin/two";\nexport default [service("web", { exec })];\n`);
    expect(await exec()).toBe("/bin/two");
    expect(kept(cache)).toHaveLength(2);
  });

  it("loads the spec through jiti when the kept code does not compile", async () => {
    const dir = await specFolder({ "tend.config.ts": `import { service } from "@tend/core";\nexport default [service("web", { exec: "/bin/web" as string })];\n` });
    const file = join(dir, "tend.config.ts");
    const cache = await freshCache();
    await load(file, cache);
    const [entry] = kept(cache);
    const stored = JSON.parse(readFileSync(entry!, "utf8")) as { key: string; value: string };
    writeFileSync(entry!, JSON.stringify({ key: stored.key, value: "this is not {{ code" }));
    expect((await load(file, cache)).resources[0]).toMatchObject({ name: "web", exec: "/bin/web" });
  });

  it("keeps nothing for a spec that does not load, and names the same line for a throw, from the cache or not", async () => {
    const cache = await freshCache();
    const syntax = join(await specFolder({ "tend.config.ts": `import { defineConfig } from "@tend/core";\nexport default defineConfig(() => [\n  { type: "service", name: "x" ,,\n]);\n` }), "tend.config.ts");
    for (let run = 0; run < 2; run += 1) expect(((await load(syntax, cache).catch((e: unknown) => e)) as TendError).location).toMatchObject({ file: syntax, line: 3 });
    expect(kept(cache)).toEqual([]);
    // Throws while building (after loading): its code is kept, and the warm run names the line too.
    const thrown = join(await specFolder({ "tend.config.ts": `import { defineConfig } from "@tend/core";\ntype X = { a: number };\nexport default defineConfig(() => {\n  throw new Error("boom");\n});\n` }), "tend.config.ts");
    for (let run = 0; run < 2; run += 1) {
      const error = (await load(thrown, cache).catch((e: unknown) => e)) as TendError;
      expect([error.message, error.location]).toMatchObject([expect.stringContaining("boom"), { file: thrown, line: 4 }]);
    }
    expect(kept(cache)).toHaveLength(1);
    // Throws at import: never kept, the same line each time.
    const atImport = join(await specFolder({ "tend.config.ts": `const n: number = 1;\nif (n) throw new Error("at import");\nexport default [];\n` }), "tend.config.ts");
    for (let run = 0; run < 2; run += 1) expect(((await load(atImport, cache).catch((e: unknown) => e)) as TendError).location).toMatchObject({ file: atImport, line: 2 });
    expect(kept(cache)).toHaveLength(1);
  });

  it("gives a warm spec core's schemas when it uses them, and the very copy of core that loads it", async () => {
    const cache = await freshCache();
    const schemas = join(
      await specFolder({ "tend.config.ts": `import { ServiceSchema } from "@tend/core";\nconst base = ServiceSchema.parse({ type: "service", name: "web", exec: "/bin/web" });\nexport default [base];\n` }),
      "tend.config.ts",
    );
    for (let run = 0; run < 2; run += 1) expect((await load(schemas, cache)).resources[0]).toMatchObject({ name: "web" });
    const classes = join(
      await specFolder({ "tend.config.ts": `import { TendError } from "@tend/core";\n(globalThis as any).__tendWarmClass = TendError;\nexport default [];\n` }),
      "tend.config.ts",
    );
    await load(classes, cache);
    delete (globalThis as { __tendWarmClass?: unknown }).__tendWarmClass;
    await load(classes, cache);
    expect((globalThis as { __tendWarmClass?: unknown }).__tendWarmClass).toBe(TendError);
    expect(kept(cache)).toHaveLength(2);
  });
});
