import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseManifest, type FoundProvider } from "./provider-manifest.js";

const NAME = /^(@tend\/provider-[a-z0-9._-]+|tend-provider-[a-z0-9._-]+|@[a-z0-9._-]+\/tend-provider-[a-z0-9._-]+)$/;

export interface DiscoveryProblem {
  packageName: string;
  message: string;
}

/** True for names discovery looks at: `@tend/provider-*`, `tend-provider-*`, `@scope/tend-provider-*`. */
export function isProviderPackageName(name: string): boolean {
  return NAME.test(name);
}

/** A `node_modules` folder discovery may read, and how its packages came to be trusted. */
export interface ProviderPlace {
  modules: string;
  origin: string;
}

/**
 * Finds provider packages in exactly the given `node_modules` folders, in order, never in a
 * parent folder's: only package.json files are read, and the first copy of a package name
 * wins. Problems are collected, never thrown.
 */
export function findProviders(places: ProviderPlace[]): { found: FoundProvider[]; problems: DiscoveryProblem[] } {
  const found = new Map<string, FoundProvider>();
  const problems: DiscoveryProblem[] = [];
  const seen = new Set<string>();
  for (const place of places) {
    if (seen.has(place.modules)) continue;
    seen.add(place.modules);
    for (const name of candidateNames(place.modules)) {
      if (found.has(name)) continue;
      const result = readProviderPackage(join(place.modules, name), place.origin);
      if ("problem" in result) problems.push({ packageName: name, message: result.problem });
      else found.set(name, result.provider);
    }
  }
  return { found: [...found.values()], problems };
}

function candidateNames(modules: string): string[] {
  const names: string[] = [];
  for (const entry of safeList(modules)) {
    if (entry.startsWith("@")) {
      for (const inner of safeList(join(modules, entry))) if (isProviderPackageName(`${entry}/${inner}`)) names.push(`${entry}/${inner}`);
    } else if (isProviderPackageName(entry)) names.push(entry);
  }
  return names.sort();
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Reads one package's manifest; a package without a valid `tend.provider` marker is a problem. */
export function readProviderPackage(dir: string, origin: string): { provider: FoundProvider } | { problem: string } {
  let pkg: { name?: string; version?: string; peerDependencies?: Record<string, string>; tend?: { provider?: unknown } };
  try {
    pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  } catch (error) {
    return { problem: `unreadable package.json (${(error as Error).message})` };
  }
  const manifest = parseManifest(pkg.tend?.provider);
  if (typeof manifest === "string") return { problem: manifest };
  const coreRange = pkg.peerDependencies?.["@tend/core"];
  return {
    provider: { packageName: pkg.name ?? dir, version: pkg.version ?? "0.0.0", dir, manifest, ...(coreRange ? { coreRange } : {}), origin },
  };
}
