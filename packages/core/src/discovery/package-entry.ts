import { realpathSync, statSync } from "node:fs";
import { join } from "node:path";

/** The conditions Node's ES module resolution matches, in the order the package lists them. */
const CONDITIONS = new Set(["node", "import", "default"]);

/**
 * The file `import "<name>"` gives from inside the package in `dir`, when its `exports` say it
 * plainly: a string, or conditions (`node`, `import`, `default`, nested) leading to a `./` path
 * without patterns or odd segments, naming a file that exists; resolved through links as Node
 * does. Anything else is undefined, and left to the full resolver (import-meta-resolve), which
 * also words the errors. A package without `exports` gives its `main` the same way.
 */
export function plainPackageEntry(dir: string, pkg: { exports?: unknown; main?: string }): string | undefined {
  const target = pkg.exports === undefined ? mainTarget(pkg.main) : dotTarget(pkg.exports);
  if (target === undefined || !/^\.\/./.test(target) || target.includes("*") || target.includes("\\") || target.includes("%")) return undefined;
  if (target.slice(2).split("/").some((segment) => segment === "" || segment === "." || segment === ".." || segment.toLowerCase() === "node_modules")) return undefined;
  const file = join(dir, target);
  try {
    return statSync(file).isFile() ? realpathSync(file) : undefined;
  } catch {
    return undefined;
  }
}

function mainTarget(main: string | undefined): string | undefined {
  if (main === undefined) return "./index.js";
  return main.startsWith("./") ? main : `./${main}`;
}

/** The target `exports` gives the package's `.`, when it gives one plainly. */
function dotTarget(exports: unknown): string | undefined {
  if (typeof exports === "string") return exports;
  if (!isObject(exports)) return undefined;
  const keys = Object.keys(exports);
  const subpaths = keys.filter((key) => key.startsWith("."));
  if (subpaths.length === 0) return conditionTarget(exports);
  if (subpaths.length !== keys.length) return undefined;
  return conditionTarget(exports["."]);
}

function conditionTarget(target: unknown): string | undefined {
  if (typeof target === "string") return target;
  if (!isObject(target)) return undefined;
  for (const [key, value] of Object.entries(target)) {
    if (/^\d+$/.test(key)) return undefined;
    if (!CONDITIONS.has(key)) continue;
    if (typeof value === "string") return value;
    // A nested condition that matches nothing lets Node go on to the next key; that, and every
    // other shape, the full resolver decides.
    return isObject(value) ? conditionTarget(value) : undefined;
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
