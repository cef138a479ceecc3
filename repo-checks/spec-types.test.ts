import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const REPO = new URL("..", import.meta.url).pathname;
const TSC = join(REPO, "node_modules/typescript/bin/tsc");

// A spec's folder has @tend/core and typescript, not @types/node (the README's install line):
// the declarations a spec reaches must not name Node's types. The packaging suite proves it with
// the packed package; this catches it in the unit run, from the built dist.
describe("the declarations a spec imports", () => {
  const folder = mkdtempSync(join(tmpdir(), "tend-spec-types-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it.each([["@tend/core", "dist/index.d.ts"], ["@tend/core/runtime", "dist/runtime.d.ts"]])("%s type-checks without @types/node", (name, entry) => {
    writeFileSync(join(folder, "spec.ts"), `import * as core from "${name}";\nexport const seen = core;\n`);
    const compilerOptions = { module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, noEmit: true, types: [], paths: { [name]: [join(REPO, "packages/core", entry)] } };
    writeFileSync(join(folder, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["spec.ts"] }));
    let output = "";
    try {
      execFileSync(process.execPath, [TSC, "-p", folder], { encoding: "utf8" });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout);
    }
    expect(output).toBe("");
  });
});
