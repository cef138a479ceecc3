import { defineProvider, type Package, type ProviderDefinition } from "@tend/core/contract";
import { applyPackages, type AptOptions } from "./apply-packages.js";
import { checkPackages, observePackages } from "./observe-packages.js";

export type AptProviderOptions = AptOptions;

/**
 * Packages on Debian and Ubuntu hosts, with apt and dpkg, whatever the init: a fallback provider
 * for `package`, a type no init runs itself, so discovery picks it on every init. It renders
 * nothing; apply runs apt-get, a wave at a time. Removing a package from the spec leaves it
 * installed (tend stops managing it); `state: absent` removes it.
 */
export function createAptProvider(options: AptProviderOptions = {}): ProviderDefinition {
  return defineProvider({
    apiVersion: 1,
    name: "apt",
    serves: { inits: [], types: ["package"], fallback: true },
    capabilities: {},
    render: () => [],
    observe: (resources, ctx) => observePackages(resources as Package[], ctx),
    checkHost: async (resources, observations) => checkPackages(resources as Package[], observations),
    async apply(change, ctx) {
      const failed = await applyPackages([change], ctx, options);
      const error = failed.get(change.key);
      if (error !== undefined) throw error;
    },
    applyBatch: (changes, ctx) => applyPackages(changes, ctx, options),
    async remove(change, ctx) {
      ctx.log(`${change.key}: no longer managed by tend; left installed (state: absent removes a package)`);
    },
    async removeBatch(changes, ctx) {
      for (const change of changes) ctx.log(`${change.key}: no longer managed by tend; left installed (state: absent removes a package)`);
      return new Map();
    },
  }) as unknown as ProviderDefinition;
}
