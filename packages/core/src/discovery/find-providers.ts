import { readdirSync, readFileSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { FoundProvider, ProviderManifest } from "./provider-manifest.js";

const NAME = /^(@tend\/provider-[a-z0-9._-]+|tend-provider-[a-z0-9._-]+|@[a-z0-9._-]+\/tend-provider-[a-z0-9._-]+)$/;

export interface DiscoveryProblem {
  packageName: string;
  message: string;
}

/** True for names discovery looks at: `@tend/provider-*`, `tend-provider-*`, `@scope/tend-provider-*`. */
export function isProviderPackageName(name: string): boolean {
  return NAME.test(name);
}

/**
 * Finds provider packages in every `node_modules` from each start folder up to `/`, in order
 * (the spec's folder first, then tend's own install). Only package.json files are read; the
 * first copy of a package name wins. Problems are collected, never thrown.
 */
export function findProviders(starts: { dir: string; origin: string }[]): { found: FoundProvider[]; problems: DiscoveryProblem[] } {
  const found = new Map<string, FoundProvider>();
  const problems: DiscoveryProblem[] = [];
  const seen = new Set<string>();
  for (const start of starts) {
    for (let dir = resolve(start.dir); ; dir = dirname(dir)) {
      const modules = join(dir, "node_modules");
      if (!seen.has(modules) && existsSync(modules)) {
        seen.add(modules);
        for (const name of candidateNames(modules)) {
          if (found.has(name)) continue;
          const result = readProviderPackage(join(modules, name), start.origin);
          if ("problem" in result) problems.push({ packageName: name, message: result.problem });
          else found.set(name, result.provider);
        }
      }
      if (dirname(dir) === dir) break;
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

/** Reads one package's manifest; a package without the `tend.provider` marker is a problem. */
export function readProviderPackage(dir: string, origin: string): { provider: FoundProvider } | { problem: string } {
  let pkg: { name?: string; version?: string; main?: string; exports?: unknown; tend?: { provider?: Partial<ProviderManifest> } };
  try {
    pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  } catch (error) {
    return { problem: `unreadable package.json (${(error as Error).message})` };
  }
  const marker = pkg.tend?.provider;
  if (!marker) return { problem: 'its package.json has no "tend": { "provider": { "apiVersion": 1, ... } } marker' };
  const manifest: ProviderManifest = {
    apiVersion: Number(marker.apiVersion),
    inits: Array.isArray(marker.inits) ? marker.inits : [],
    types: Array.isArray(marker.types) ? marker.types : [],
  };
  return {
    provider: { packageName: pkg.name ?? dir, version: pkg.version ?? "0.0.0", dir, entry: join(dir, entryOf(pkg)), manifest, origin },
  };
}

function entryOf(pkg: { main?: string; exports?: unknown }): string {
  const exportsField = pkg.exports as Record<string, unknown> | string | undefined;
  const dot = typeof exportsField === "string" ? exportsField : exportsField?.["."];
  if (typeof dot === "string") return dot;
  if (dot && typeof dot === "object") {
    const conditions = dot as Record<string, unknown>;
    for (const key of ["import", "default", "node"]) if (typeof conditions[key] === "string") return conditions[key] as string;
  }
  return pkg.main ?? "index.js";
}
