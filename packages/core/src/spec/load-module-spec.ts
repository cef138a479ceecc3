import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CORE_CODE_DIR, FROM_SOURCES } from "../core-package.js";
import type { Jiti } from "jiti";
import type { ContentCache } from "../cache/content-cache.js";
import type { HostFacts } from "../contract/host.js";
import { errors } from "../errors/catalogue.js";
import type { TendError } from "../errors/tend-error.js";
import type { ResourceList, TendConfig } from "../model/builders.js";
import type { RawSpec } from "./load-yaml-spec.js";
import { withDeadline } from "./with-deadline.js";
import { siteOf } from "./spec-site.js";
import { specThrew } from "./spec-threw.js";
import { checkNativeImports, loadingAsRoot } from "./spec-import-guard.js";
import { compileTranspiledSpec, keepTranspiledSpec, readTranspiledSpec } from "./transpiled-spec.js";

/**
 * What `@tend/core` has beyond `@tend/core/runtime`: zod's schemas, ~30 ms to load. A spec gets
 * the runtime entry with these as getters; the first use of one (at import or while building)
 * has the spec imported again with all of core (a spec that uses them is evaluated twice).
 */
const SCHEMA_EXPORTS = ["ResourceSchema", "ServiceSchema", "TimerSchema", "FileSchema", "PackageSchema", "validateSpec"] as const;

/** What a getter of SCHEMA_EXPORTS throws while the schemas are not loaded. */
const SCHEMAS_NOT_LOADED = new Error("tend: @tend/core's schemas are loaded on first use");

/**
 * Opens `tend.config.{ts,mts,js,mjs}` with no build step: the module is imported once, and its
 * `providers` are known before the host is (they may declare the host's init); the resources are
 * built per host. `@tend/core` (and `@tend/core/contract`) inside the spec resolve to this very
 * copy, so a spec anywhere on disk works with an installed `tend`.
 */
export async function openModuleSpec(file: string, cache?: ContentCache): Promise<OpenedRawSpec> {
  let loaded = await importSpec(file, cache, false);
  if (loaded.wantedSchemas()) loaded = await importSpec(file, cache, true);
  return {
    providers: loaded.config.providers ?? [],
    async resources(host: HostFacts): Promise<RawSpec> {
      // A build that reached for the schemas is done again with them (whatever it threw then).
      let list: ResourceList = await buildList(loaded.config, host, file).catch((error: unknown) => {
        if (!loaded.wantedSchemas()) throw error;
        return [];
      });
      if (loaded.wantedSchemas()) {
        loaded = await importSpec(file, cache, true);
        list = await buildList(loaded.config, host, file);
      }
      const resources = flatten(list, file);
      // A resource made with service()/timer()/file() knows its line; a plain object only its file.
      return { resources, locate: (index) => ({ file, ...(siteOf(resources[index])?.file === file ? { line: siteOf(resources[index])!.line } : {}) }) };
    },
  };
}

/**
 * The spec module imported with core's schemas or without (see SCHEMA_EXPORTS): through jiti, or,
 * for a TypeScript spec whose transpiled code tend's cache has, that code evaluated without jiti.
 * As root, nothing it imports may be another user's to change (loadingAsRoot).
 */
function importSpec(file: string, cache: ContentCache | undefined, withSchemas: boolean): Promise<{ config: TendConfig; wantedSchemas: () => boolean }> {
  return loadingAsRoot(file, () => importSpecModule(file, cache, withSchemas));
}

async function importSpecModule(file: string, cache: ContentCache | undefined, withSchemas: boolean): Promise<{ config: TendConfig; wantedSchemas: () => boolean }> {
  const entry = (name: string) => join(CORE_CODE_DIR, `${name}.${FROM_SOURCES ? "ts" : "js"}`);
  const coreEntry = entry("index");
  const contractEntry = entry("contract/index");
  // The spec gets this very copy of core, imported natively: not transpiled and evaluated again
  // by jiti (the schemas alone are most of a second), and one TendError class for the spec too.
  const [core, contract] = await Promise.all([import(pathToFileURL(withSchemas ? coreEntry : entry("runtime")).href), import(pathToFileURL(contractEntry).href)]);
  let wanted = false;
  const specCore: Record<string, unknown> = { ...core };
  if (!withSchemas) {
    for (const name of SCHEMA_EXPORTS) {
      Object.defineProperty(specCore, name, {
        enumerable: true,
        get() {
          wanted = true;
          throw SCHEMAS_NOT_LOADED;
        },
      });
    }
  }
  const virtual = { "@tend/core": specCore, "@tend/core/contract": contract };
  const jitiFor = (parent: string): Jiti => {
    // Required, not imported: an ES import of jiti's 190 kB CommonJS build has Node scan all of it
    // for its export names first (cjs-module-lexer, ~18 ms of every run with a TypeScript spec).
    const { createJiti } = createRequire(import.meta.url)("jiti") as typeof import("jiti");
    checkNativeImports();
    return createJiti(parent, {
      virtualModules: virtual,
      alias: { "@tend/core/contract": contractEntry, "@tend/core": coreEntry },
      moduleCache: false,
      // Transpiled modules are kept in tend's own cache when there is one (never beside the spec):
      // jiti names an entry by the file and checks the hash of its source at the end of the entry,
      // so a changed spec, or an entry another run is still writing, is a miss.
      fsCache: cache?.folder("transpiled") ?? false,
      tryNative: false,
    });
  };
  const transpiled = readTranspiledSpec(file, cache);
  const compiled = transpiled?.code === undefined ? undefined : compileTranspiledSpec(transpiled.code, file);
  let exported: unknown;
  const retry = { config: { resources: () => [] }, wantedSchemas: () => true };
  try {
    if (compiled) {
      let nested: Jiti | undefined;
      exported = await withDeadline(compiled({ virtual, jiti: () => (nested ??= jitiFor(file)) }), file);
    } else {
      const jiti = jitiFor(import.meta.url);
      exported = await withDeadline(jiti.import(file, { default: true }), file);
      if (cache && transpiled) keepTranspiledSpec(cache, transpiled, () => jiti.transform({ source: transpiled.source, filename: file, ts: true, async: true }));
    }
  } catch (error) {
    if (wanted) return retry;
    if (jitiMetNullDefault(error)) throw notASpec(file);
    throw specThrew(error, file, "could not be loaded");
  }
  try {
    if (isThenable(exported)) exported = await withDeadline(Promise.resolve(exported), file);
  } catch (error) {
    if (wanted) return retry;
    throw specThrew(error, file, "could not be loaded");
  }
  if (wanted) return retry;
  return { config: toConfig(exported, file), wantedSchemas: () => wanted };
}

/** The spec's resource list for `host`, its failures as errors naming the file (what it imports meanwhile as root checked too). */
async function buildList(config: TendConfig, host: HostFacts, file: string): Promise<ResourceList> {
  try {
    return await loadingAsRoot(file, () => withDeadline(Promise.resolve().then(() => config.resources(host)), file));
  } catch (error) {
    throw specThrew(error, file, "failed while building the resource list");
  }
}

/** A spec opened but not yet built: its providers, and its raw resources for a host. */
export interface OpenedRawSpec {
  providers: string[];
  resources(host: HostFacts): Promise<RawSpec>;
}

/**
 * jiti's interop reads `then` of a module whose default export is null and throws a TypeError
 * from its own code: the spec exports nothing tend can use, and says so as for any other value.
 */
function jitiMetNullDefault(error: unknown): boolean {
  if (!(error instanceof TypeError) || error.message !== "Cannot read properties of null (reading 'then')") return false;
  const firstFrame = error.stack?.split("\n").find((line) => line.trimStart().startsWith("at "));
  return /[\\/]jiti[\\/]/.test(firstFrame ?? "");
}

/** A module whose default export is no spec. */
function notASpec(file: string): TendError {
  return errors.spec(`${file} must export default defineConfig(host => [...]) or a list of resources`, { file });
}

function toConfig(exported: unknown, file: string): TendConfig {
  if (typeof exported === "function") return { resources: exported as TendConfig["resources"] };
  if (Array.isArray(exported)) return { resources: () => exported as ResourceList };
  if (exported && typeof exported === "object" && typeof (exported as TendConfig).resources === "function") return exported as TendConfig;
  throw notASpec(file);
}

/**
 * The resources of the spec's list, whose items may be lists again (nested as deep as the spec
 * likes: walked without recursion) or false, null and undefined (left out). A list inside its own
 * items is the spec's error, and so is anything a Proxy or getter throws while it is read.
 */
function flatten(list: ResourceList, file: string): unknown[] {
  if (!Array.isArray(list)) throw errors.spec("the spec's resources must be a list");
  const out: unknown[] = [];
  const open = new Set<unknown[]>([list]);
  const stack: { items: unknown[]; at: number }[] = [{ items: list, at: 0 }];
  try {
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.at >= top.items.length) {
        open.delete(top.items);
        stack.pop();
        continue;
      }
      const item = top.items[top.at++];
      if (item === false || item === null || item === undefined) continue;
      if (!Array.isArray(item)) out.push(item);
      else if (open.has(item)) throw errors.spec(`${file} builds a resource list that holds itself: a list is one of its own items, at any depth`, { file });
      else {
        open.add(item);
        stack.push({ items: item, at: 0 });
      }
    }
  } catch (error) {
    throw specThrew(error, file, "failed while its resource list was read");
  }
  return out;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}
