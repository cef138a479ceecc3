import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { describe, expect, it } from "vitest";

const sources = readdirSync(new URL(".", import.meta.url)).filter((name) => name.endsWith(".js"));
const importsOf = (name: string) => [...readFileSync(new URL(`./${name}`, import.meta.url), "utf8").matchAll(/^(?:import|export)\b[^;]*?from\s+"([^"]+)"/gms)].map((m) => m[1]!);

describe("what the package uses and ships", () => {
  it("imports nothing but @tend/core/contract, node builtins and its own files", () => {
    for (const name of sources) {
      for (const specifier of importsOf(name)) {
        const allowed = specifier === "@tend/core/contract" || specifier.startsWith("./") || builtinModules.includes(specifier.replace(/^node:/, ""));
        expect(allowed, `${name} imports ${specifier}`).toBe(true);
      }
    }
  });

  it("ships every file its code imports (files: src/*.js), and no test", () => {
    for (const name of sources) {
      for (const specifier of importsOf(name).filter((s) => s.startsWith("./"))) expect(sources, `${name} imports ${specifier}`).toContain(specifier.slice(2));
    }
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect(pkg.files).toEqual(["src/*.js"]);
    expect(pkg.exports["."]).toBe("./src/index.js");
    expect(pkg.peerDependencies).toEqual({ "@tend/core": ">=0.1.0 <1.0.0" });
    expect(pkg.dependencies).toBeUndefined();
  });
});
