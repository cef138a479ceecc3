import type { ResourceType } from "../model/resource-schema.js";
import { RESOURCE_TYPES } from "../model/reference.js";

/**
 * An init a provider package teaches tend: how to recognise a host that runs it, what it runs
 * natively, and what to suggest for what it does not. Core knows no init by name; every init,
 * first-party or not, comes from one of these.
 */
export interface InitDeclaration {
  /** How messages name it (`OpenRC`); default its key. */
  displayName?: string;
  /**
   * How to tell a host runs it: PID 1's name (`/proc/1/comm`), a path that exists, the platform;
   * in an image root (`--root`), whose `/sbin/init` names no init, a path of the init's own that
   * the image holds (`imagePaths`: OpenRC's `/sbin/openrc`, run from sysvinit's or busybox's inittab).
   */
  detect?: { pid1?: string[]; paths?: string[]; imagePaths?: string[]; platforms?: string[] };
  /** The resource types it runs by itself (`["service", "timer"]`); others go to fallback providers. */
  native: ResourceType[];
  /** The package to suggest for a type it does not run natively (`{ "timer": "@tend/provider-cron" }`). */
  suggest?: Partial<Record<ResourceType, string>>;
}

/**
 * What a provider package's package.json says under `"tend": { "provider": {...} }`, read without
 * importing the package:
 * - `apiVersion`: the contract version it implements;
 * - `types`: the resource types it serves;
 * - `inits`: the inits it serves those types on natively;
 * - `fallback`: true for a provider that serves its types on any init that does not run them
 *   natively (cron serves timers wherever an init has none);
 * - `declares`: the inits it teaches tend (an init's own provider declares it).
 */
export interface ProviderManifest {
  apiVersion: number;
  types: ResourceType[];
  inits: string[];
  fallback: boolean;
  declares: Record<string, InitDeclaration>;
}

/** A provider package found on disk, not yet imported. */
export interface FoundProvider {
  packageName: string;
  version: string;
  /** The package's folder. */
  dir: string;
  manifest: ProviderManifest;
  /** The `@tend/core` range it peer-depends on, when it says. */
  coreRange?: string;
  /** How it was found: `listed in the spec`, `spec's project`, `tend's install`. */
  origin: string;
}

const INIT_NAME = /^[a-z][a-z0-9_-]*$/;

/** Reads the `tend.provider` marker of a package.json; a string says what is wrong with it. */
export function parseManifest(marker: unknown): ProviderManifest | string {
  if (typeof marker !== "object" || marker === null) return 'its package.json has no "tend": { "provider": { "apiVersion": 1, ... } } marker';
  const raw = marker as Record<string, unknown>;
  const types = raw.types;
  if (!Array.isArray(types) || types.some((t) => !(RESOURCE_TYPES as readonly string[]).includes(t as string))) {
    return `its manifest's "types" must list resource types (${RESOURCE_TYPES.join(", ")})`;
  }
  const inits = raw.inits ?? [];
  if (!Array.isArray(inits) || inits.some((i) => typeof i !== "string" || !INIT_NAME.test(i))) return 'its manifest\'s "inits" must list init names such as "runit"';
  const declares: Record<string, InitDeclaration> = {};
  for (const [name, value] of Object.entries((raw.declares ?? {}) as Record<string, unknown>)) {
    if (!INIT_NAME.test(name)) return `its manifest declares an init named ${JSON.stringify(name)}; init names are lowercase letters, digits, - and _`;
    const declaration = parseDeclaration(value);
    if (typeof declaration === "string") return `its manifest's declaration of ${name} ${declaration}`;
    declares[name] = declaration;
  }
  return { apiVersion: Number(raw.apiVersion), types: types as ResourceType[], inits: inits as string[], fallback: raw.fallback === true, declares };
}

function parseDeclaration(value: unknown): InitDeclaration | string {
  if (typeof value !== "object" || value === null) return "is not an object";
  const raw = value as Record<string, unknown>;
  const native = raw.native ?? [];
  if (!Array.isArray(native) || native.some((t) => !(RESOURCE_TYPES as readonly string[]).includes(t as string))) return 'has a "native" that is not a list of resource types';
  const detect = (raw.detect ?? {}) as Record<string, unknown>;
  for (const key of ["pid1", "paths", "imagePaths", "platforms"]) {
    const list = detect[key];
    if (list !== undefined && (!Array.isArray(list) || list.some((x) => typeof x !== "string"))) return `has a "detect.${key}" that is not a list of strings`;
  }
  for (const key of ["paths", "imagePaths"]) {
    if ((detect[key] as string[] | undefined)?.some((p) => !p.startsWith("/"))) return `has a "detect.${key}" entry that is not an absolute path`;
  }
  return {
    ...(typeof raw.displayName === "string" ? { displayName: raw.displayName } : {}),
    detect: detect as InitDeclaration["detect"] & object,
    native: native as ResourceType[],
    ...(typeof raw.suggest === "object" && raw.suggest !== null ? { suggest: raw.suggest as InitDeclaration["suggest"] & object } : {}),
  };
}
