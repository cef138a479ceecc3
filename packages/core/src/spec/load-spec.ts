import type { HostFacts } from "../contract/host.js";
import { isNormalHostPath } from "../files/host-path.js";
import type { Resource } from "../model/resource-schema.js";
import { validateSpec } from "../model/validate-spec.js";
import { openModuleSpec, type OpenedRawSpec } from "./load-module-spec.js";
import { loadYamlSpec } from "./load-yaml-spec.js";

export interface Spec {
  file: string;
  resources: Resource[];
  /** Provider packages the spec names explicitly. */
  providers: string[];
}

/** A spec file opened: the providers it lists (known before the host is), and its resources for a host. */
export interface OpenedSpec {
  file: string;
  providers: string[];
  build(host: HostFacts): Promise<Spec>;
}

/** Opens a spec file (YAML, or a config module, imported once). */
export async function openSpec(file: string): Promise<OpenedSpec> {
  const raw: OpenedRawSpec = /\.ya?ml$/.test(file)
    ? await loadYamlSpec(file).then((parsed) => ({ providers: [], resources: async () => parsed }))
    : await openModuleSpec(file);
  return {
    file,
    providers: raw.providers,
    async build(host) {
      const { resources, locate } = await raw.resources(host);
      return { file, resources: validateSpec(resources, locate, { reserved: reservedFolders(host) }), providers: raw.providers };
    },
  };
}

/** Loads and validates a spec file for a host. */
export async function loadSpec(file: string, host: HostFacts): Promise<Spec> {
  return (await openSpec(file)).build(host);
}

/** tend's own folders on this host: the system state, the host user's state, the lock folder. */
function reservedFolders(host: HostFacts): string[] {
  const folders = ["/var/lib/tend", "/run/tend", `${host.home}/.local/state/tend`];
  const xdg = process.env.XDG_STATE_HOME;
  if (xdg && isNormalHostPath(xdg)) folders.push(`${xdg}/tend`);
  return folders;
}
