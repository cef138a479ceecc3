import type { InitName } from "../contract/host.js";
import type { ResourceType } from "../model/resource-schema.js";

/** What a provider package's package.json says under `"tend": { "provider": {...} }`. */
export interface ProviderManifest {
  apiVersion: number;
  inits: InitName[];
  types: ResourceType[];
}

/** A provider package found on disk, not yet imported. */
export interface FoundProvider {
  packageName: string;
  version: string;
  /** The package's folder. */
  dir: string;
  /** The module to import. */
  entry: string;
  manifest: ProviderManifest;
  /** How it was found: `spec folder`, `tend's install`, `listed in the spec`. */
  origin: string;
}

/** The package tend suggests when nothing serves a resource type on an init. */
export function firstPartyPackage(init: InitName, type: ResourceType): string {
  if (type === "timer" && init !== "systemd" && init !== "launchd") return "@tend/provider-cron";
  return `@tend/provider-${init}`;
}
