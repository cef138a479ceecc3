import type { ArtifactStore } from "../contract/artifact.js";
import type { ProviderDefinition } from "../contract/provider.js";
import { errors } from "../errors/catalogue.js";

/** The stores the core reads and writes itself; any other is a provider's. */
export function isCoreStore(store: string): store is "file" | "symlink" | "directory" {
  return store === "file" || store === "symlink" || store === "directory";
}

/** The loaded provider that defines `store`, with the store; an error when none does. */
export function providerStore(providers: Iterable<ProviderDefinition>, store: string): { provider: ProviderDefinition; store: ArtifactStore } {
  for (const provider of providers) {
    const found = provider.stores?.[store];
    if (found) return { provider, store: found };
  }
  throw errors.spec(`no loaded provider defines the artifact store \`${store}\``);
}
