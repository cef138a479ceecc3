import type { Probe, ReadContext, Resource } from "@tend/core/contract";
import { servicesOf } from "./services-of.js";
import { isRunning } from "./parse-sv-status.js";
import { readSvStatus } from "./read-sv-status.js";
import { serviceLayout } from "./service-layout.js";

/**
 * Health for verification, from one batched `sv status`: up is `run:` without `want down`, and
 * identity is the pid, so a process that died and was restarted in the settle window shows as a
 * new identity. A service directory with a `./check` script is up only once `sv check` (which
 * runs it) passes; one more batched call, for those services only.
 */
export async function probeServices(resources: Resource[], ctx: ReadContext): Promise<Map<string, Probe>> {
  const services = servicesOf(resources);
  const dirs = services.map((service) => serviceLayout(service, ctx).dir);
  const statuses = await readSvStatus(dirs, ctx);
  const hasCheck = await Promise.all(dirs.map((dir) => ctx.files.exists(`${dir}/check`)));
  const toCheck = dirs.filter((dir, i) => hasCheck[i] && isRunning(statuses.get(dir)));
  const checks = toCheck.length > 0 ? await readSvStatus(toCheck, ctx, "check") : new Map();

  const result = new Map<string, Probe>();
  for (const [i, service] of services.entries()) {
    const dir = dirs[i]!;
    const status = statuses.get(dir);
    const checked = hasCheck[i] ? checks.get(dir)?.checked === true : true;
    const pid = status?.service?.pid;
    result.set(`service:${service.name}`, {
      up: isRunning(status) && checked,
      ...(pid === undefined ? {} : { identity: String(pid) }),
      detail: `${status?.line ?? `sv status ${dir} printed nothing`}${isRunning(status) && !checked ? " (./check does not pass)" : ""}`,
    });
  }
  return result;
}
