import { errors, type Observation, type ReadContext, type Resource, type Service, type TendError } from "@tend/core/contract";
import { dinitErrors } from "./dinit-errors.js";
import { findDescription } from "./find-description.js";
import { enableProblem } from "./enable-problem.js";
import { resolveEnableLink } from "./resolve-enable-link.js";
import { serviceDirs } from "./service-dirs.js";
import { descriptionDir, descriptionName, dinitName } from "./service-paths.js";

/**
 * What would make dinit refuse a plan that renders fine: a dependency (`network`, another tend
 * service) no description provides, since dinit will not load a service whose dependency is
 * missing; a service to enable whose boot service has no `waits-for.d` folder; a distro service
 * whose description is missing; and a dinit that cannot be reached.
 */
export async function checkHost(resources: Resource[], observations: Map<string, Observation>, ctx: ReadContext): Promise<TendError[]> {
  const services = resources.filter((r): r is Service => r.type === "service");
  const found: TendError[] = [];
  const unreachable = [...observations.values()].find((o) => o.details?.unreachable !== undefined);
  if (unreachable && ctx.root === undefined) found.push(dinitErrors.unreachable(ctx.scope, String(unreachable.details!.unreachable)));
  const declared = new Set(services.filter((s) => s.exec !== undefined).map((s) => s.name));
  for (const service of services) {
    const ref = `service:${service.name}`;
    const name = dinitName(service);
    if (service.exec === undefined) {
      // With `requires`, a file or package in this apply may still provide it; apply checks again.
      if (!observations.get(ref)?.exists && !(service.requires?.length)) {
        found.push(errors.distroUnitMissing(ref, `${descriptionDir(ctx.scope)}/${descriptionName(name)}`));
      }
    } else {
      for (const entry of new Set(service.after ?? [])) {
        if (entry === "network") {
          if (ctx.scope.kind === "system" && !(await findDescription("network", ctx.scope, ctx.files))) {
            found.push(dinitErrors.noNetwork(ref, name, serviceDirs(ctx.scope)));
          }
        } else if (!entry.endsWith(".target") && !declared.has(entry)) {
          found.push(dinitErrors.missingDependency(ref, entry, name));
        }
      }
    }
    const wantsEnabled = service.desired?.enabled ?? true;
    if (wantsEnabled && observations.get(ref)?.enabled === false) {
      const problem = enableProblem(ref, name, await resolveEnableLink(name, ctx.scope, ctx.files), ctx.scope);
      if (problem) found.push(problem);
    }
  }
  return found;
}

