import { dirname, isAbsolute, resolve } from "node:path";
import { existsSync } from "node:fs";
import type { InitName } from "../contract/host.js";
import type { ProviderDefinition } from "../contract/provider.js";
import { errors, moreErrors } from "../errors/catalogue.js";
import type { TendError } from "../errors/tend-error.js";
import type { ResourceType } from "../model/resource-schema.js";
import { findProviders, readProviderPackage, type DiscoveryProblem } from "../discovery/find-providers.js";
import { loadProvider } from "../discovery/load-provider.js";
import { firstPartyPackage, type FoundProvider } from "../discovery/provider-manifest.js";

/**
 * The providers reachable from a spec: discovered from the spec's folder up, then from tend's own
 * install, plus any the spec lists. Only manifests are read up front; a provider module is
 * imported the first time a resource needs it.
 */
export class ProviderRegistry {
  readonly found: FoundProvider[];
  readonly problems: DiscoveryProblem[];
  private readonly loaded = new Map<string, Promise<{ provider: ProviderDefinition } | { error: TendError }>>();

  constructor(specDir: string, toolDir: string, listed: string[] = []) {
    const explicit: FoundProvider[] = [];
    const problems: DiscoveryProblem[] = [];
    for (const name of listed) {
      const dir = resolveListed(name, specDir);
      if (!dir) {
        problems.push({ packageName: name, message: `listed in the spec, but not found from ${specDir}` });
        continue;
      }
      const result = readProviderPackage(dir, "listed in the spec");
      if ("problem" in result) problems.push({ packageName: name, message: result.problem });
      else explicit.push(result.provider);
    }
    const discovered = findProviders([
      { dir: specDir, origin: "spec folder" },
      { dir: toolDir, origin: "tend's install" },
    ]);
    const names = new Set(explicit.map((p) => p.packageName));
    this.found = [...explicit, ...discovered.found.filter((p) => !names.has(p.packageName))];
    this.problems = [...problems, ...discovered.problems];
  }

  /**
   * The package serving `type` on `init`: one the spec lists explicitly first, then first-party
   * `@tend/provider-<init>`, then others in discovery order.
   */
  packageFor(init: InitName, type: ResourceType): FoundProvider | undefined {
    const serving = this.found.filter((p) => p.manifest.inits.includes(init) && p.manifest.types.includes(type));
    const preferred = firstPartyPackage(init, type);
    return serving.find((p) => p.origin === "listed in the spec") ?? serving.find((p) => p.packageName === preferred) ?? serving[0];
  }

  /** Registers an already loaded provider (programmatic use and tests). */
  register(provider: ProviderDefinition, packageName = `tend-provider-${provider.name}`): void {
    this.found.unshift({
      packageName,
      version: "0.0.0",
      dir: "",
      entry: "",
      manifest: { apiVersion: provider.apiVersion, inits: provider.serves.inits, types: provider.serves.types },
      origin: "listed in the spec",
    });
    this.loaded.set(packageName, Promise.resolve({ provider }));
  }

  async load(found: FoundProvider): Promise<ProviderDefinition> {
    let pending = this.loaded.get(found.packageName);
    if (!pending) {
      pending = loadProvider(found);
      this.loaded.set(found.packageName, pending);
    }
    const result = await pending;
    if ("error" in result) throw result.error;
    return result.provider;
  }

  /** The loaded provider for `type` on `init`, or the one error naming the exact install command. */
  async providerFor(init: InitName, type: ResourceType, ref = `${type}`): Promise<ProviderDefinition> {
    const found = this.packageFor(init, type);
    if (!found) {
      const pkg = firstPartyPackage(init, type);
      const problem = this.problems.find((p) => p.packageName === pkg);
      if (problem) throw moreErrors.noProvider(ref, init, { hint: `${pkg}: ${problem.message}` });
      throw errors.providerMissing(`${ref} on ${init}`, pkg);
    }
    return this.load(found);
  }
}

function resolveListed(name: string, specDir: string): string | undefined {
  if (name.startsWith(".") || isAbsolute(name)) {
    const dir = resolve(specDir, name);
    return existsSync(resolve(dir, "package.json")) ? dir : undefined;
  }
  for (let dir = specDir; ; dir = dirname(dir)) {
    const candidate = resolve(dir, "node_modules", name);
    if (existsSync(resolve(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}
