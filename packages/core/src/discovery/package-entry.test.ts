import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import fc from "fast-check";
import { resolve as resolveModule } from "import-meta-resolve";
import { describe, expect, it } from "vitest";
import { plainPackageEntry } from "./package-entry.js";

/** A package folder holding `files`, with `manifest` as its package.json. */
function packageWith(manifest: Record<string, unknown>, files: string[]): string {
  const dir = join(mkdtempSync(join(tmpdir(), "tend-entry-")), "pkg");
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), "export default 1;\n");
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest));
  return dir;
}

/** What the full resolver answers (a path, or that it fails), as load-provider asks it. */
function resolved(dir: string, manifest: { name?: string; exports?: unknown; main?: string }): string | "fails" {
  const self = pathToFileURL(join(dir, "package.json")).href;
  try {
    if (manifest.exports !== undefined && manifest.name) return fileURLToPath(resolveModule(manifest.name, self));
    return fileURLToPath(resolveModule(pathToFileURL(join(dir, manifest.main ?? "index.js")).href, self));
  } catch {
    return "fails";
  }
}

const FILES = ["dist/index.js", "index.js", "lib/main.mjs"];
const target = fc.constantFrom("./dist/index.js", "./index.js", "./lib/main.mjs", "./missing.js", "dist/index.js", "./dist/../index.js", "./dist/*.js", "../x.js", "./node_modules/x.js");
const conditions = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, target, tie("object"), fc.constant(null), fc.array(target, { maxLength: 2 })),
  object: fc
    .uniqueArray(fc.tuple(fc.constantFrom("types", "require", "import", "node", "default", "browser", "deno"), tie("value")), { selector: ([key]) => key, maxLength: 3 })
    .map((entries) => Object.fromEntries(entries)),
}));
const exportsField = fc.oneof(
  target,
  conditions.object,
  fc.record({ ".": conditions.value, "./package.json": fc.constant("./package.json") }, { requiredKeys: ["."] }),
  fc.record({ "./other": target }),
);

describe("a provider's entry, read directly from its package.json", () => {
  it("is the file the full resolver finds whenever it answers at all", () => {
    let answered = 0;
    fc.assert(
      fc.property(exportsField, (exports) => {
        const manifest = { name: "@tend/provider-x", exports };
        const dir = packageWith(manifest, FILES);
        const plain = plainPackageEntry(dir, manifest);
        if (plain !== undefined) expect(plain).toBe(resolved(dir, manifest));
        if (plain !== undefined) answered += 1;
      }),
      { numRuns: 300 },
    );
    expect(answered).toBeGreaterThan(10);
  });

  it("answers the shapes packages publish, through links as Node does", () => {
    const published = { name: "@tend/provider-x", exports: { ".": { types: "./dist/index.d.ts", import: "./dist/index.js" }, "./package.json": "./package.json" } };
    const dir = packageWith(published, FILES);
    const link = join(dirname(dir), "link");
    symlinkSync(dir, link);
    expect(plainPackageEntry(link, published)).toBe(join(dir, "dist/index.js"));
    expect(plainPackageEntry(link, published)).toBe(resolved(link, published));
    for (const manifest of [{ name: "p", exports: "./index.js" }, { name: "p", exports: { node: { import: "./lib/main.mjs" } } }, { main: "lib/main.mjs" }, { main: "./dist/index.js" }, {}]) {
      const own = packageWith(manifest, FILES);
      expect(plainPackageEntry(own, manifest), JSON.stringify(manifest)).toBe(resolved(own, manifest));
      expect(plainPackageEntry(own, manifest)).toBeDefined();
    }
  });

  it("leaves a missing file, a pattern and an odd segment to the full resolver (it words the error)", () => {
    for (const exports of ["./missing.js", "./dist/*.js", "./dist/../index.js", ["./index.js"], { require: "./index.js" }]) {
      const manifest = { name: "p", exports };
      expect(plainPackageEntry(packageWith(manifest, FILES), manifest), JSON.stringify(exports)).toBeUndefined();
    }
  });
});
