import { errors, resourceKey, type Observation, type ReadContext, type Resource, type Service, type TendError } from "@tend/core/contract";
import { hostProvidesNet } from "./find-net-providers.js";
import { noNetProviderError } from "./no-net-provider-error.js";
import { initScriptPath } from "./script-name.js";

/**
 * Host checks at plan time: a distro service whose script is missing (tend never invents one),
 * and `need net` on a host where nothing provides `net`.
 */
export async function checkHost(resources: Resource[], _observations: Map<string, Observation>, ctx: ReadContext): Promise<TendError[]> {
  const services = resources.filter((resource): resource is Service => resource.type === "service");
  const problems: TendError[] = [];
  for (const service of services) {
    const path = initScriptPath(service.name);
    if (service.exec === undefined && !(await ctx.files.exists(path))) {
      problems.push(errors.distroUnitMissing(resourceKey("service", service.name), path));
    }
  }
  const needNet = services.filter((service) => service.exec !== undefined && service.after?.includes("network"));
  if (needNet.length > 0 && !(await hostProvidesNet(ctx.files, ctx.root !== undefined))) {
    problems.push(...needNet.map((service) => noNetProviderError(resourceKey("service", service.name))));
  }
  return problems;
}
