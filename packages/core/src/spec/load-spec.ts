import type { HostFacts } from "../contract/host.js";
import type { Resource } from "../model/resource-schema.js";
import { validateSpec } from "../model/validate-spec.js";
import { isNormalHostPath } from "../files/host-path.js";
import { loadModuleSpec } from "./load-module-spec.js";
import { loadYamlSpec } from "./load-yaml-spec.js";

export interface Spec {
  file: string;
  resources: Resource[];
  /** Provider packages the spec names explicitly. */
  providers: string[];
}

/** Loads and validates a spec file (YAML or a config module). */
export async function loadSpec(file: string, host: HostFacts): Promise<Spec> {
  const raw = /\.ya?ml$/.test(file) ? await loadYamlSpec(file) : await loadModuleSpec(file, host);
  const resources = validateSpec(raw.resources, raw.locate, { reserved: reservedFolders(host) });
  return { file, resources, providers: raw.providers ?? [] };
}

/** tend's own folders on this host: the system state, the host user's state, the lock folder. */
function reservedFolders(host: HostFacts): string[] {
  const folders = ["/var/lib/tend", "/run/tend", `${host.home}/.local/state/tend`];
  const xdg = process.env.XDG_STATE_HOME;
  if (xdg && isNormalHostPath(xdg)) folders.push(`${xdg}/tend`);
  return folders;
}
