import type { Artifact, RenderContext, Service } from "@tend/core/contract";
import { DOWN_FILE_CONTENT, rendersDownFile, TRANSIENT_DOWN_CONTENT } from "./down-file.js";
import { renderFinishScript } from "./render-finish-script.js";
import { renderLogScript } from "./render-log-script.js";
import { renderControlTerm } from "./process-group.js";
import { renderRunScript } from "./render-run-script.js";
import { serviceLayout } from "./service-layout.js";

/** runsv creates `supervise/` (its control and status files) inside every service directory. */
const RUNTIME_ENTRIES = ["supervise"];

/**
 * A service's artifacts, in writing order. A tend service is a directory with `run`, `finish`
 * (ending the program's process group, then per `restart`), `control/t` (a stop ends the whole
 * group), `log/run` and, when it must not start at boot, `down`; a system one is
 * enabled last by its link in the runsvdir, so runsv never sees a half-written directory. A user
 * service's directory sits in the scanned `~/.local/service` itself. A distro service is only
 * its link, and only while it is to be enabled.
 */
export function renderService(service: Service, ctx: RenderContext): Artifact[] {
  const layout = serviceLayout(service, ctx);
  const link: Artifact[] = layout.link ? [{ store: "symlink", path: layout.link, content: layout.dir }] : [];
  if (layout.distro || service.exec === undefined) return service.desired?.enabled === false ? [] : link;

  return [
    { store: "directory", path: layout.dir, content: "", mode: 0o755, ephemeral: RUNTIME_ENTRIES },
    // A transient `down` a killed apply left (see transient-down.ts) is tend's to rewrite.
    ...(rendersDownFile(service) ? [{ path: `${layout.dir}/down`, content: DOWN_FILE_CONTENT, mode: 0o644, interim: TRANSIENT_DOWN_CONTENT }] : []),
    { store: "directory", path: `${layout.dir}/log`, content: "", mode: 0o755, ephemeral: RUNTIME_ENTRIES },
    { path: `${layout.dir}/log/run`, content: renderLogScript(layout.logDir), mode: 0o755 },
    { store: "directory", path: `${layout.dir}/control`, content: "", mode: 0o755 },
    { path: `${layout.dir}/control/t`, content: renderControlTerm(), mode: 0o755 },
    { path: `${layout.dir}/finish`, content: renderFinishScript(service, ctx), mode: 0o755 },
    { path: `${layout.dir}/run`, content: renderRunScript({ ...service, exec: service.exec }, ctx), mode: 0o755 },
    ...link,
  ];
}
