import type { Artifact, Resource } from "@tend/core/contract";
import { renderInitScript } from "./render-init-script.js";
import { initScriptPath, scriptName } from "./script-name.js";

/** A service with `exec` becomes one executable script; a distro service, nothing. */
export function renderService(resource: Resource): Artifact[] {
  if (resource.type !== "service" || resource.exec === undefined) return [];
  const service = { ...resource, exec: resource.exec };
  return [{ path: initScriptPath(scriptName(service)), content: renderInitScript(service), mode: 0o755 }];
}
