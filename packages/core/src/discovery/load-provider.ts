import { pathToFileURL } from "node:url";
import { API_VERSION, type ProviderDefinition } from "../contract/provider.js";
import { errors } from "../errors/catalogue.js";
import type { TendError } from "../errors/tend-error.js";
import type { FoundProvider } from "./provider-manifest.js";

/** Imports a found provider and checks it speaks this core's contract version. */
export async function loadProvider(found: FoundProvider): Promise<{ provider: ProviderDefinition } | { error: TendError }> {
  if (found.manifest.apiVersion !== API_VERSION) return { error: errors.providerIncompatible(found.packageName, found.manifest.apiVersion) };
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(found.entry).href)) as { default?: unknown };
  } catch (error) {
    return { error: errors.spec(`provider ${found.packageName} could not be loaded: ${(error as Error).message.split("\n")[0]}`, { cause: error }) };
  }
  const provider = module.default as Partial<ProviderDefinition> | undefined;
  if (!provider || typeof provider !== "object" || typeof provider.render !== "function") {
    return { error: errors.spec(`provider ${found.packageName} has no default export made with defineProvider()`) };
  }
  if (provider.apiVersion !== API_VERSION) return { error: errors.providerIncompatible(found.packageName, provider.apiVersion) };
  return { provider: provider as ProviderDefinition };
}
