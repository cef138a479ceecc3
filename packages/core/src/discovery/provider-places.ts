import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import type { ProviderPlace } from "./find-providers.js";

/**
 * Where tend's own install keeps packages: the CLI's own `node_modules`, and the `node_modules`
 * the CLI is installed in (a global prefix's, a project's; through pnpm's `.pnpm` store to the
 * folder above it). In a checkout of tend's repository, the workspace's `node_modules` that holds
 * the CLI. Never a folder further up: a `node_modules` anyone could create above the install
 * (`/tmp/node_modules`) is not tend's.
 */
export function installPlaces(toolDir: string): ProviderPlace[] {
  const origin = "tend's install";
  const real = realpathOr(toolDir);
  const places: ProviderPlace[] = [{ modules: join(real, "node_modules"), origin }];
  const containing = containingModules(real);
  if (containing) {
    places.push({ modules: containing, origin });
    const store = /^(.*)\/node_modules\/\.pnpm\/[^/]+\/node_modules$/.exec(containing);
    if (store) places.push({ modules: `${store[1]}/node_modules`, origin });
    return places;
  }
  for (let dir = dirname(real); dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, "node_modules");
    const installed = join(candidate, "@tend", basename(real));
    if (existsSync(installed) && realpathOr(installed) === real) {
      places.push({ modules: candidate, origin });
      break;
    }
  }
  return places;
}

/**
 * The spec's own project: the `node_modules` beside the nearest package.json at or above the
 * spec's folder, and nothing above that project.
 */
export function projectPlace(specDir: string): ProviderPlace | undefined {
  for (let dir = specDir; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return { modules: join(dir, "node_modules"), origin: "spec's project" };
    if (dirname(dir) === dir) return undefined;
  }
}

/** The `node_modules` folder a package folder sits in (its scope's, for `@scope/name`). */
function containingModules(dir: string): string | undefined {
  const parts = dir.split(sep);
  for (let i = parts.length - 2; i >= 0; i -= 1) {
    if (parts[i] === "node_modules") return parts.slice(0, i + 1).join(sep);
    if (!parts[i]!.startsWith("@")) return undefined;
  }
  return undefined;
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
