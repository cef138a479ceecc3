import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CORE_PACKAGE_DIR } from "../core-package.js";
import { API_VERSION, type ProviderDefinition } from "../contract/provider.js";
import { errors, moreErrors } from "../errors/catalogue.js";
import type { TendError } from "../errors/tend-error.js";
import type { FoundProvider } from "./provider-manifest.js";
import { foldersUpTo, sudoOwners, untrustedPath } from "../files/root-trust.js";
import { satisfiesCoreRange } from "./core-range.js";
import { plainPackageEntry } from "./package-entry.js";

/** The version of this @tend/core, which providers' peer ranges are checked against. */
export const CORE_VERSION = (JSON.parse(readFileSync(join(CORE_PACKAGE_DIR, "package.json"), "utf8")) as { version: string }).version;

/**
 * Imports a found provider after checking it may be and can be: it was built for this contract
 * (manifest's apiVersion) and this core (its `@tend/core` peer range), as root no other user than
 * the one who ran sudo could have changed it, its entry resolves the way Node resolves the
 * package, and what its code says it serves is what its package.json says.
 */
export async function loadProvider(found: FoundProvider, modules: string | undefined): Promise<{ provider: ProviderDefinition } | { error: TendError }> {
  if (found.manifest.apiVersion !== API_VERSION) return { error: errors.providerIncompatible(found.packageName, found.manifest.apiVersion) };
  if (found.coreRange && !found.coreRange.startsWith("workspace:") && !(await satisfiesCoreRange(CORE_VERSION, found.coreRange))) {
    return { error: moreErrors.providerCoreRange(found.packageName, found.version, found.coreRange, CORE_VERSION) };
  }
  let entry: string;
  try {
    entry = await resolveEntry(found);
  } catch (error) {
    return { error: errors.spec(`provider ${found.packageName} has no entry Node can resolve: ${(error as Error).message.split("\n")[0]}`, { cause: error }) };
  }
  const linkDir = modules ? join(modules, found.packageName) : found.dir;
  const realDir = realpath(found.dir);
  const untrusted = untrustedPath([...foldersUpTo(realpath(entry), realDir), ...(modules ? foldersUpTo(linkDir, modules) : [found.dir])], sudoOwners());
  if (untrusted) return { error: moreErrors.providerUntrusted(found.packageName, untrusted) };
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(entry).href)) as { default?: unknown };
  } catch (error) {
    return { error: errors.spec(`provider ${found.packageName} could not be loaded: ${(error as Error).message.split("\n")[0]}`, { cause: error }) };
  }
  const provider = module.default as Partial<ProviderDefinition> | undefined;
  if (!provider || typeof provider !== "object" || typeof provider.render !== "function") {
    return { error: errors.spec(`provider ${found.packageName} has no default export made with defineProvider()`) };
  }
  if (provider.apiVersion !== API_VERSION) return { error: errors.providerIncompatible(found.packageName, provider.apiVersion) };
  const disagreement = manifestDisagreement(found, provider as ProviderDefinition);
  if (disagreement) return { error: moreErrors.providerManifestMismatch(found.packageName, disagreement) };
  return { provider: provider as ProviderDefinition };
}

/**
 * The package's main module, resolved as `import "<name>"` from the folder it was found in (Node's
 * algorithm): read directly when its package.json says it plainly, else by import-meta-resolve.
 */
async function resolveEntry(found: FoundProvider): Promise<string> {
  const pkg = JSON.parse(readFileSync(join(found.dir, "package.json"), "utf8")) as { name?: string; exports?: unknown; main?: string };
  if (pkg.exports === undefined || pkg.name) {
    const plain = plainPackageEntry(found.dir, pkg);
    if (plain) return plain;
  }
  const { resolve: resolveModule } = await import("import-meta-resolve");
  const self = pathToFileURL(join(found.dir, "package.json")).href;
  if (pkg.exports !== undefined && pkg.name) return fileURLToPath(resolveModule(pkg.name, self));
  const main = join(found.dir, pkg.main ?? "index.js");
  return fileURLToPath(resolveModule(pathToFileURL(main).href, self));
}

function manifestDisagreement(found: FoundProvider, provider: ProviderDefinition): string | undefined {
  const same = (a: readonly string[], b: readonly string[]) => [...a].sort().join(",") === [...b].sort().join(",");
  const serves = provider.serves ?? { inits: [], types: [] };
  if (!same(found.manifest.types, serves.types ?? [])) return `its package.json serves ${found.manifest.types.join(", ") || "nothing"}, its code ${(serves.types ?? []).join(", ") || "nothing"}`;
  if (!same(found.manifest.inits, serves.inits ?? [])) return `its package.json serves the inits ${found.manifest.inits.join(", ") || "none"}, its code ${(serves.inits ?? []).join(", ") || "none"}`;
  if (found.manifest.fallback !== (serves.fallback === true)) return `its package.json says fallback ${found.manifest.fallback}, its code ${serves.fallback === true}`;
  return undefined;
}

function realpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

