import fs from "node:fs";
import * as nodeModule from "node:module";
import { pathToFileURL, fileURLToPath } from "node:url";
import { builtFile } from "../core-package.js";
import { errors } from "../errors/catalogue.js";
import type { TendError } from "../errors/tend-error.js";
import { changeableFile, sudoOwners } from "../files/root-trust.js";

/**
 * The files whose text decides what code runs: module sources of every kind jiti and Node load
 * (and native addons), and package.json (its `main`, `exports` and `type`).
 */
const MODULE_FILE = /(?:\.(?:[cm]?[jt]sx?|json|node))$/i;

/** A spec being loaded or built as root: its file, and the first import refused for it. */
interface Window {
  spec: string;
  refused?: TendError;
}

const open = new Set<Window>();
let original: typeof fs.readFileSync | undefined;
type Compile = (this: unknown, content: string, filename: string, ...rest: unknown[]) => unknown;
/** Node's own CommonJS compile, while a window has it checked. */
let originalCompile: Compile | undefined;
const moduleProto = (nodeModule.Module as unknown as { prototype: { _compile: Compile } }).prototype;
/** Node's own loading of a native addon (a `.node` file), while a window has it checked. */
let originalDlopen: typeof process.dlopen | undefined;
/** How many windows are open, shared with the import hooks' thread (spec-import-hooks.ts). */
let hooksActive: Int32Array | undefined;

/**
 * Runs `load` (a module spec's import, or its build) so that, as root, no module it loads can be
 * one another user could change: each must pass the rule the spec file itself passed (root's, or
 * the sudo user's, down to `/`, writable by no one else; see changeableFile). A tend.config.ts
 * imports its own files and packages through jiti, which reads each with `fs.readFileSync` before
 * it evaluates it; what jiti leaves to Node passes Node's CommonJS compile (each file, whoever read
 * it: Node's ES loader reads a CommonJS package's re-exported files itself), its loading of a
 * native addon (`process.dlopen`) or, for an ES module, Node's load hook (checkNativeImports). A refusal is the spec's error, naming the module, even
 * where the code that asked caught it. Not root: `load` alone.
 */
export async function loadingAsRoot<T>(spec: string, load: () => Promise<T>): Promise<T> {
  if (process.getuid?.() !== 0) return load();
  const window: Window = { spec };
  open.add(window);
  if (open.size === 1) {
    original = fs.readFileSync;
    fs.readFileSync = guardedRead as typeof fs.readFileSync;
    originalCompile = moduleProto._compile;
    moduleProto._compile = guardedCompile;
    originalDlopen = process.dlopen;
    process.dlopen = guardedDlopen;
  }
  if (hooksActive) Atomics.add(hooksActive, 0, 1);
  let result: T;
  try {
    result = await load();
  } catch (error) {
    throw window.refused ?? error;
  } finally {
    if (hooksActive) Atomics.sub(hooksActive, 0, 1);
    open.delete(window);
    if (open.size === 0 && original) {
      fs.readFileSync = original;
      original = undefined;
      moduleProto._compile = originalCompile!;
      originalCompile = undefined;
      process.dlopen = originalDlopen!;
      originalDlopen = undefined;
    }
  }
  if (window.refused) throw window.refused;
  return result;
}

/**
 * Has Node's own module loader check what it loads while a window is open: called before jiti,
 * whose ES module imports of packages go to Node. Once per process (a worker thread of Node's,
 * ~15–30 ms), and only as root; a Node without `module.register` (before 20.6) has jiti's reads
 * checked alone.
 */
export function checkNativeImports(): void {
  if (hooksActive || process.getuid?.() !== 0 || typeof nodeModule.register !== "function") return;
  hooksActive = new Int32Array(new SharedArrayBuffer(4));
  hooksActive[0] = open.size;
  nodeModule.register(pathToFileURL(builtFile("spec/spec-import-hooks.js")).href, { data: { owners: sudoOwners(), active: hooksActive } });
}

function guardedRead(this: unknown, ...args: Parameters<typeof fs.readFileSync>): ReturnType<typeof fs.readFileSync> {
  const file = pathRead(args[0]);
  if (file !== undefined && MODULE_FILE.test(file)) refuseChangeable(file);
  return original!.apply(this, args);
}

/** The file a read names (a descriptor names none; a URL that is no file path is left to the read, which fails). */
function pathRead(path: unknown): string | undefined {
  if (Buffer.isBuffer(path)) return path.toString();
  // Node's ES loader reads a CommonJS module by its file: URL, as a string.
  const url = path instanceof URL ? path : typeof path === "string" && path.startsWith("file:") ? path : undefined;
  if (url === undefined) return typeof path === "string" ? path : undefined;
  try {
    return fileURLToPath(url);
  } catch {
    return undefined;
  }
}

function guardedCompile(this: unknown, content: string, filename: string, ...rest: unknown[]): unknown {
  refuseChangeable(filename);
  return originalCompile!.call(this, content, filename, ...rest);
}

function guardedDlopen(this: unknown, module: object, filename: string, ...rest: unknown[]): void {
  refuseChangeable(filename);
  (originalDlopen as (this: unknown, ...args: unknown[]) => void).call(this, module, filename, ...rest);
}

function refuseChangeable(file: string): void {
  const why = changeableFile(file, sudoOwners());
  if (!why) return;
  const windows = [...open];
  const error = errors.spec(`refusing to load ${file} as root for ${windows[0]!.spec}: ${why}`, {
    file: windows[0]!.spec,
    hint: "Give the module and the folders above it to root, writable by no one else (chown root; chmod go-w), or run tend through sudo as their owner",
  });
  for (const window of windows) window.refused ??= error;
  throw error;
}
