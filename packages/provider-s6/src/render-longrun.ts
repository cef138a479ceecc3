import { errors, type Artifact, type Service } from "@tend/core/contract";
import { renderFinishScript } from "./render-finish-script.js";
import { renderRunScript } from "./render-run-script.js";
import { dependencyProblem, serviceDependencies } from "./service-dependencies.js";
import { BUNDLE_DIR, serviceName, sourceDir } from "./s6-layout.js";

/**
 * The s6-rc source definition of a tend service: `/etc/s6/sv/tend-<name>/` with `type`, `run`,
 * `finish`, `dependencies.d/tend-<dep>` for each `after` service,
 * and, while it is enabled at boot, its membership file in the `tend` bundle. The bundle's own
 * `type` file is shared by every tend service, so it is no one service's artifact: the compile
 * step creates it when missing.
 */
export function renderLongrun(service: Service): Artifact[] {
  const ref = `service:${service.name}`;
  if (service.exec === undefined) throw errors.noDistroUnits(ref, "s6");
  const dir = sourceDir(service.name);
  const artifacts: Artifact[] = [
    { store: "directory", path: dir, content: "", mode: 0o755 },
    { path: `${dir}/type`, content: "longrun\n", mode: 0o644 },
    { path: `${dir}/run`, content: renderRunScript({ ...service, exec: service.exec }), mode: 0o755 },
  ];
  artifacts.push({ path: `${dir}/finish`, content: renderFinishScript(service), mode: 0o755 });
  const dependencies = serviceDependencies(service);
  if (dependencies.length > 0) {
    artifacts.push({ store: "directory", path: `${dir}/dependencies.d`, content: "", mode: 0o755 });
    for (const dependency of dependencies) {
      const problem = dependencyProblem(service, dependency);
      if (problem) throw errors.invalidField(ref, "after", problem);
      artifacts.push({ path: `${dir}/dependencies.d/${serviceName(dependency)}`, content: "", mode: 0o644 });
    }
  }
  if (service.desired?.enabled !== false) {
    artifacts.push({ path: `${BUNDLE_DIR}/contents.d/${serviceName(service.name)}`, content: "", mode: 0o644 });
  }
  return artifacts;
}
