import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = new URL("..", import.meta.url).pathname;

/** Every module a provider ships: its src files, without tests and test fixtures. */
function shippedSources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "__fixtures__" && name !== "__golden__" && name !== "__testing__") out.push(...shippedSources(path));
    } else if (/\.(ts|js|mjs)$/.test(name) && !/\.test\.(ts|js|mjs)$/.test(name)) out.push(path);
  }
  return out;
}

const providers = [
  ...readdirSync(join(REPO, "packages"))
    .filter((name) => name.startsWith("provider-"))
    .map((name) => join(REPO, "packages", name, "src")),
  join(REPO, "examples/tend-provider-supervisord"),
].filter((dir) => {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
});

describe("providers use only @tend/core/contract", () => {
  it.each(providers.map((dir) => [relative(REPO, dir), dir]))("%s imports nothing else of core", (_name, dir) => {
    const offending: string[] = [];
    for (const file of shippedSources(dir)) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["'](@tend\/[^"']+)["']/g)) {
        if (match[1] !== "@tend/core/contract") offending.push(`${relative(REPO, file)}: ${match[1]}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it.each(providers.filter((dir) => dir.includes("/packages/")).map((dir) => [relative(REPO, dir), dir]))("%s peer-depends on @tend/core and does not bundle it", (_name, dir) => {
    const pkg = JSON.parse(readFileSync(join(dir, "../package.json"), "utf8")) as { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
    expect(pkg.dependencies?.["@tend/core"]).toBeUndefined();
    expect(pkg.peerDependencies?.["@tend/core"]).toBeDefined();
  });
});
