import { errors, type Observation, type ReadContext, type Resource, type TendError } from "@tend/core/contract";
import { servicesOf } from "./services-of.js";
import { serviceLayout } from "./service-layout.js";
import { needsRoot, scopeRunsvdir, userRunsvdirInPlace } from "./user-runsvdir.js";

/**
 * Host checks at plan time: a distro service's `/etc/sv/<name>` must exist (tend never invents
 * one), and user services need root as long as the user's `tend-runsvdir-<user>` system service
 * is missing or out of date, since apply must write it.
 */
export async function checkHost(resources: Resource[], _observations: Map<string, Observation>, ctx: ReadContext): Promise<TendError[]> {
  const problems: TendError[] = [];
  const services = servicesOf(resources);
  for (const service of services) {
    if (service.exec !== undefined) continue;
    const { dir } = serviceLayout(service, ctx);
    if (!(await ctx.files.isDirectory(dir))) problems.push(errors.distroUnitMissing(`service:${service.name}`, dir));
  }
  const firstUserService = services.find((service) => service.user === true && service.exec !== undefined);
  if (firstUserService && ctx.root === undefined && process.getuid?.() !== 0) {
    const runsvdir = scopeRunsvdir(ctx);
    if (!(await userRunsvdirInPlace(runsvdir, ctx.files))) problems.push(needsRoot(runsvdir, `service:${firstUserService.name}`));
  }
  return problems;
}
