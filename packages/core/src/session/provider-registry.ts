import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { InitName } from "../contract/host.js";
import type { ProviderDefinition } from "../contract/provider.js";
import { errors, moreErrors } from "../errors/catalogue.js";
import type { TendError } from "../errors/tend-error.js";
import type { ResourceType } from "../model/resource-schema.js";
import { findProviders, readProviderPackage, type DiscoveryProblem, type ProviderPlace } from "../discovery/find-providers.js";
import { InitCatalogue } from "../discovery/init-catalogue.js";
import { loadProvider } from "../discovery/load-provider.js";
import { installPlaces, projectPlace } from "../discovery/provider-places.js";
import type { FoundProvider } from "../discovery/provider-manifest.js";

const LISTED = "listed in the spec";

/**
 * The providers a run may use, from exactly three places: those the spec lists, the spec's own
 * project (the `node_modules` beside its nearest package.json) and tend's own install. Only
 * manifests are read up front; a provider module is imported the first time a resource needs it.
 * The inits tend knows are the ones these manifests declare.
 */
export class ProviderRegistry {
  found: FoundProvider[];
  readonly problems: DiscoveryProblem[];
  inits: InitCatalogue;
  /** How to install a package the way tend itself was installed (`npm install --global X`). */
  installCommand: (pkg: string) => string = (pkg) => `npm install --global ${pkg}`;
  /** The `node_modules` each package was found in (none for one listed by path). */
  private readonly modules = new Map<string, string | undefined>();
  private readonly loaded = new Map<string, Promise<{ provider: ProviderDefinition } | { error: TendError }>>();
  private readonly origins = new Map<ProviderDefinition, FoundProvider>();

  constructor(places: ProviderPlace[]) {
    const discovered = findProviders(places);
    this.found = discovered.found;
    this.problems = discovered.problems;
    for (const provider of this.found) {
      const place = places.find((p) => provider.dir.startsWith(`${p.modules}/`));
      this.modules.set(provider.packageName, place?.modules);
    }
    this.inits = new InitCatalogue(this.found);
  }

  /** The spec's project first (it may pin its own versions), then tend's install. */
  static discover(toolDir: string, specDir?: string): ProviderRegistry {
    const project = specDir === undefined ? undefined : projectPlace(specDir);
    return new ProviderRegistry([...(project ? [project] : []), ...installPlaces(toolDir)]);
  }

  /**
   * Adds the providers a spec lists (`providers: ["tend-provider-x", "./my-provider"]`): a name
   * from the spec's project's `node_modules`, a path relative to the spec. They come first.
   */
  addListed(listed: string[], specDir: string): void {
    const explicit: FoundProvider[] = [];
    for (const name of listed) {
      const located = locateListed(name, specDir);
      if (!located) {
        this.problems.push({ packageName: name, message: `listed in the spec, but not found in ${projectPlace(specDir)?.modules ?? "the spec's folder"}` });
        continue;
      }
      const result = readProviderPackage(located.dir, LISTED);
      if ("problem" in result) this.problems.push({ packageName: name, message: result.problem });
      else {
        explicit.push(result.provider);
        this.modules.set(result.provider.packageName, located.modules);
      }
    }
    if (explicit.length === 0) return;
    const names = new Set(explicit.map((p) => p.packageName));
    this.found = [...explicit, ...this.found.filter((p) => !names.has(p.packageName))];
    this.inits = new InitCatalogue(this.found);
  }

  /**
   * The package serving `type` on `init`: among those serving it natively there, one the spec
   * lists, then the one that declares the init, then the first found; when the init does not run
   * `type` itself, a fallback provider (the one the init suggests first). Undefined when none.
   */
  packageFor(init: InitName, type: ResourceType): FoundProvider | undefined {
    const declared = this.inits.get(init);
    const native = this.found.filter((p) => p.manifest.types.includes(type) && p.manifest.inits.includes(init));
    if (native.length > 0) return native.find((p) => p.origin === LISTED) ?? native.find((p) => p.packageName === declared?.declaredBy) ?? native[0];
    if (this.inits.runsNatively(init, type)) return undefined;
    const fallbacks = this.found.filter((p) => p.manifest.fallback && p.manifest.types.includes(type));
    return fallbacks.find((p) => p.origin === LISTED) ?? fallbacks.find((p) => p.packageName === declared?.suggest?.[type]) ?? fallbacks[0];
  }

  /** The package to install for `type` on `init` when none serves it: the init's own, or what it suggests. */
  suggestionFor(init: InitName, type: ResourceType): string | undefined {
    const declared = this.inits.get(init);
    if (!declared) return undefined;
    return this.inits.runsNatively(init, type) ? declared.declaredBy : declared.suggest?.[type];
  }

  /** Registers an already loaded provider (programmatic use and tests). */
  register(provider: ProviderDefinition, packageName = `tend-provider-${provider.name}`): void {
    this.found.unshift({
      packageName,
      version: "0.0.0",
      dir: "",
      manifest: { apiVersion: provider.apiVersion, inits: provider.serves.inits, types: provider.serves.types, fallback: provider.serves.fallback === true, declares: {} },
      origin: LISTED,
    });
    this.loaded.set(packageName, Promise.resolve({ provider }));
    this.origins.set(provider, this.found[0]!);
  }

  /** The package a loaded provider came from. */
  packageOf(provider: ProviderDefinition): FoundProvider | undefined {
    return this.origins.get(provider);
  }

  async load(found: FoundProvider): Promise<ProviderDefinition> {
    let pending = this.loaded.get(found.packageName);
    if (!pending) {
      pending = loadProvider(found, this.modules.get(found.packageName));
      this.loaded.set(found.packageName, pending);
    }
    const result = await pending;
    if ("error" in result) throw result.error;
    this.origins.set(result.provider, found);
    return result.provider;
  }

  /** The loaded provider for `type` on `init`, or the one error naming the exact package to install. */
  async providerFor(init: InitName, type: ResourceType, ref = `${type}`): Promise<ProviderDefinition> {
    const found = this.packageFor(init, type);
    if (!found) {
      const pkg = this.suggestionFor(init, type);
      const display = this.inits.displayName(init);
      if (!pkg) throw moreErrors.noProvider(ref, display);
      const problem = this.problems.find((p) => p.packageName === pkg);
      if (problem) throw moreErrors.noProvider(ref, display, { hint: `${pkg}: ${problem.message}` });
      throw errors.providerMissing(`${ref} on ${display}`, pkg, { hint: `Install it: ${this.installCommand(pkg)}` });
    }
    return this.load(found);
  }
}

function locateListed(name: string, specDir: string): { dir: string; modules: string | undefined } | undefined {
  if (name.startsWith(".") || isAbsolute(name)) {
    const dir = resolve(specDir, name);
    return existsSync(join(dir, "package.json")) ? { dir, modules: undefined } : undefined;
  }
  const project = projectPlace(specDir);
  if (!project) return undefined;
  const dir = join(project.modules, name);
  return existsSync(join(dir, "package.json")) ? { dir, modules: project.modules } : undefined;
}
