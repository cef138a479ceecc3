import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Where this copy of @tend/core lives. The build bundles the sources into a few files
 * (dist/index.js, dist/contract/index.js, dist/chunks/…), so a module cannot count `..` from
 * itself: the package folder is the nearest one above with a package.json, from the sources
 * (tests) and from the bundle alike.
 */
export const CORE_PACKAGE_DIR = packageDirAbove(fileURLToPath(import.meta.url));

/** Running the TypeScript sources (vitest), not the built bundle. */
export const FROM_SOURCES = import.meta.url.endsWith(".ts");

/** The folder holding this copy's code: `src` when running the sources, else `dist`. */
export const CORE_CODE_DIR = join(CORE_PACKAGE_DIR, FROM_SOURCES ? "src" : "dist");

/** A file of the built package (`dist/…`), whichever way this copy runs. */
export function builtFile(relative: string): string {
  return join(CORE_PACKAGE_DIR, "dist", relative);
}

declare const __TEND_CORE_BUILD__: string | undefined;

/**
 * This build of core: a hash of its sources and bundled dependencies, set by the build. Cached
 * work (a validated spec) is keyed by it, so a different tend never reuses it. Running the
 * sources, each process is a build of its own.
 */
export const CORE_BUILD = typeof __TEND_CORE_BUILD__ === "string" ? __TEND_CORE_BUILD__ : `sources-${process.pid}-${Date.now()}-${Math.random()}`;

function packageDirAbove(file: string): string {
  let dir = dirname(file);
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`@tend/core: no package.json above ${file}`);
    dir = parent;
  }
  return dir;
}
