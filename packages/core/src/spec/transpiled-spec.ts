import { readFileSync } from "node:fs";
import { createRequire, isBuiltin, Module } from "node:module";
import { dirname } from "node:path";
import { cacheKey, type ContentCache } from "../cache/content-cache.js";
import { CORE_BUILD } from "../core-package.js";

/** The cache's kind for a TypeScript spec's transpiled code. */
const KIND = "spec-modules";

/**
 * A TypeScript spec (`.ts`, `.mts`) as jiti transpiles it, kept in tend's cache so that a run
 * whose spec is unchanged evaluates it without loading jiti (~20 ms of every such run). The
 * entry is named by the spec's path and text and by this build of core: the code inlines the
 * path (`import.meta.url`), and the way it is evaluated here is this build's.
 */
export interface TranspiledSpec {
  key: string;
  /** The spec's text, as read for the key. */
  source: string;
  /** The code jiti made of `source` the last time it loaded it, if the cache has it. */
  code?: string;
}

/** The spec's transpiled code from the cache, or undefined for a spec that is not TypeScript or could not be read. */
export function readTranspiledSpec(file: string, cache: ContentCache | undefined): TranspiledSpec | undefined {
  if (!cache || !/\.m?ts$/.test(file)) return undefined;
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch {
    return undefined; // jiti reports it
  }
  const key = cacheKey(KIND, CORE_BUILD, file, source);
  return { key, source, code: cache.read<string>(KIND, key) };
}

/**
 * Keeps the code jiti makes of a spec that it has just loaded without an error. Keeping is never
 * an error of the run: a transform that fails here leaves the cache without the entry.
 */
export function keepTranspiledSpec(cache: ContentCache, spec: TranspiledSpec, transform: () => string): void {
  let code: string;
  try {
    code = transform();
  } catch {
    return;
  }
  // A spec with a syntax error transpiles to code that reports it (jiti's marker); it never
  // loads, so it is never kept, unless the file changed between the two reads.
  if (!code.includes("__JITI_ERROR__")) cache.write(KIND, spec.key, code);
}

/** How a spec's own imports are met: by name (`@tend/core`), else by the jiti made for the spec's folder, on first use. */
export interface SpecImports {
  virtual: Record<string, unknown>;
  jiti: () => JitiLike;
}

/** What of jiti's instance a spec's code reaches: its import, its require and its resolvers. */
export interface JitiLike {
  (id: string): unknown;
  import(id: string): Promise<unknown>;
  resolve: NodeJS.RequireResolve;
  esmResolve(id: string): string;
}

/**
 * Code jiti made of `file` (async mode), made ready to evaluate as jiti would; undefined when it
 * does not compile (an entry damaged on disk: the spec is then loaded through jiti). The code is a
 * function body of `exports, require, module, __filename, __dirname, jitiImport, jitiESMResolve`,
 * compiled with the file's name so that its errors' stacks name the file and its lines.
 */
export function compileTranspiledSpec(code: string, file: string): ((imports: SpecImports) => Promise<unknown>) | undefined {
  const { runInThisContext } = createRequire(import.meta.url)("node:vm") as typeof import("node:vm");
  let wrapped: (...args: unknown[]) => Promise<void>;
  try {
    wrapped = runInThisContext(`(async function (exports, require, module, __filename, __dirname, jitiImport, jitiESMResolve) { ${code}\n});`, {
      filename: file,
      lineOffset: 0,
      displayErrors: false,
    }) as typeof wrapped;
  } catch {
    return undefined;
  }
  return (imports) => evaluate(wrapped, file, imports);
}

/**
 * Runs the compiled spec and returns its default export (or all its exports when it has none), as
 * `jiti.import(file, { default: true })` does. `@tend/core` and Node's built-in modules are met
 * here; anything else (a file of the spec's own, a package) loads jiti, as before.
 */
async function evaluate(wrapped: (...args: unknown[]) => Promise<void>, file: string, imports: SpecImports): Promise<unknown> {
  const requireLazily = Object.assign((id: string) => imports.jiti()(id), {
    resolve: Object.assign((id: string, options?: { paths?: string[] }) => imports.jiti().resolve(id, options), { paths: (id: string) => imports.jiti().resolve.paths(id) }),
    cache: {},
    main: undefined,
    extensions: {},
  });
  const module = new Module(file);
  module.filename = file;
  module.path = dirname(file);
  module.require = requireLazily as unknown as NodeJS.Require;
  const jitiImport = async (id: string): Promise<unknown> => {
    if (Object.hasOwn(imports.virtual, id)) return interopDefault(imports.virtual[id]);
    if (isBuiltin(id)) return interopDefault(await import(id));
    return imports.jiti().import(id);
  };
  const jitiESMResolve = (id: string) => imports.jiti().esmResolve(id);
  await wrapped(module.exports, requireLazily, module, file, dirname(file), jitiImport, jitiESMResolve);
  const exported = interopDefault(module.exports) as { default?: unknown };
  return exported.default ?? exported;
}

/**
 * jiti's module interop (its `interopDefault`, on by default), so that a spec's imports see the
 * same objects whichever way it was loaded: `__esModule` is true, `default` is the module's
 * default export or else the module itself, and a name the module lacks is looked up on its
 * default export (a CommonJS module imported whole).
 */
function interopDefault(mod: unknown): unknown {
  if (mod === null || (typeof mod !== "object" && typeof mod !== "function")) return mod;
  const target = mod as Record<PropertyKey, unknown>;
  const fallback = target.default;
  const noDefault = fallback === null || fallback === undefined;
  if (noDefault && mod instanceof Promise) return mod;
  const defaultIsObject = typeof fallback === "object" || typeof fallback === "function";
  const lookIntoDefault = defaultIsObject && !(fallback instanceof Promise);
  const seen = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, name) {
      if (seen.has(name)) return seen.get(name);
      let value: unknown;
      if (name === "__esModule") value = true;
      else if (name === "default") {
        const inner = (fallback as { default?: unknown } | undefined)?.default;
        value = noDefault ? mod : typeof inner === "function" && target.__esModule ? inner : fallback;
      } else if (name in object) value = object[name];
      else if (lookIntoDefault) {
        value = (fallback as Record<PropertyKey, unknown>)[name];
        if (typeof value === "function") value = value.bind(fallback);
      }
      seen.set(name, value);
      return value;
    },
  });
}
