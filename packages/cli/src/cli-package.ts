import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The CLI's package folder: its install is where tend's own providers are found. The nearest
 * folder above this module with a package.json, from the sources and from the one-file bundle
 * (dist/bin.js) alike.
 */
export const CLI_PACKAGE_DIR = packageDirAbove(fileURLToPath(import.meta.url));

function packageDirAbove(file: string): string {
  let dir = dirname(file);
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`@tend/cli: no package.json above ${file}`);
    dir = parent;
  }
  return dir;
}
