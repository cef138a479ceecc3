import type { Observation, ReadContext, Resource } from "@tend/core/contract";
import { isRunning, type SvStatus } from "./parse-sv-status.js";
import { predictBoot, readBoot, type BootReads } from "./predict-boot.js";
import { readSvStatus } from "./read-sv-status.js";
import { serviceLayout, type ServiceLayout } from "./service-layout.js";
import { servicesOf } from "./services-of.js";
import { scopeRunsvdir, userRunsvdirInPlace, type UserRunsvdir } from "./user-runsvdir.js";

/**
 * Observes services with one batched `sv status` over their full directory paths (on this
 * machine, what sv reads, read without starting it: readSvStatus), plus reads of links and
 * `down` files. sv's reading rather than runsv's `supervise/stat` files alone: it tells whether
 * runsv is alive (it opens `supervise/ok`), while the files outlive a runsv that died. Under
 * `--root` nothing runs, so the state is unobservable there.
 *
 * exists: the service directory exists. state: `run:` without `want down`. enabled (starts at
 * boot): linked into the runsvdir and no `down` file; for a user service, its directory and the
 * user's `tend-runsvdir-<user>` in place; for a distro service, only the link (its `down` file is
 * the package's business).
 */
export async function observeServices(resources: Resource[], ctx: ReadContext): Promise<Map<string, Observation>> {
  const services = servicesOf(resources);
  const layouts = services.map((service) => serviceLayout(service, ctx));
  const userSide = services.some((service) => service.user === true && service.exec !== undefined);
  const runsvdir = userSide ? scopeRunsvdir(ctx) : undefined;
  const runsvdirInPlace = runsvdir ? await userRunsvdirInPlace(runsvdir, ctx.files) : false;

  const exists = await Promise.all(layouts.map((layout) => ctx.files.isDirectory(layout.dir)));
  const statuses = ctx.root === undefined ? await readSvStatus(layouts.filter((_, i) => exists[i]).map((layout) => layout.dir), ctx) : undefined;

  // Every service's link and `down` file, read once for both answers, all at once: on a remote
  // host (fleet) they share round trips.
  const reads = await Promise.all(layouts.map((layout, i) => (exists[i] ? readBoot(layout, ctx.files) : undefined)));
  const enabledAll = layouts.map((layout, i) => (reads[i] ? startsAtBoot(layout, reads[i], runsvdirInPlace) : false));
  const atBootAll = await Promise.all(layouts.map((layout, i) => (reads[i] ? predictBoot(layout, runsvdir, ctx.files, reads[i]) : undefined)));
  const result = new Map<string, Observation>();
  for (const [i, service] of services.entries()) {
    const layout = layouts[i]!;
    const present = exists[i]!;
    const enabled = enabledAll[i]!;
    const status = statuses?.get(layout.dir);
    const atBoot = atBootAll[i];
    result.set(`service:${service.name}`, {
      exists: present,
      ...(statuses === undefined ? {} : { state: isRunning(status) ? ("running" as const) : ("stopped" as const) }),
      enabled,
      ...(atBoot ? { atBoot } : {}),
      ...driftOf(layout, present, runsvdirInPlace ? undefined : runsvdir, statuses !== undefined && present && enabled && !layout.distro && status?.service === undefined),
      ...(status ? { details: statusDetails(status) } : {}),
      ...(status?.service?.state === "run" && status.service.pid !== undefined ? { mainPid: status.service.pid } : {}),
    });
  }
  return result;
}

/**
 * What the init differs in beyond state and enabled: a user's runsvdir service missing or edited;
 * a directory runsvdir has not picked up yet (an apply killed moments after linking it), which
 * looks stopped, but whose runsv will start the program at the next scan.
 */
function driftOf(layout: ServiceLayout, present: boolean, brokenRunsvdir: UserRunsvdir | undefined, unpicked: boolean): { drift?: string[] } {
  const drift: string[] = [];
  if (layout.user && present && brokenRunsvdir) drift.push(`${brokenRunsvdir.dir}, which runs ${brokenRunsvdir.user}'s runit services, is missing or was edited`);
  if (unpicked) drift.push(`no runsv supervises ${layout.dir} yet: runsvdir's next scan starts it`);
  return drift.length > 0 ? { drift } : {};
}

/** Enabled: linked (a distro service: only that), and no `down` file; a user service without a link, its user's runsvdir in place. */
function startsAtBoot(layout: ServiceLayout, read: BootReads, runsvdirInPlace: boolean): boolean {
  if (layout.distro) return read.linked;
  return !read.down && (layout.link ? read.linked : runsvdirInPlace);
}

/** What `tend observe` shows beyond the Datum fields. */
export function statusDetails(status: SvStatus): Record<string, string | number | boolean> {
  const details: Record<string, string | number | boolean> = { sv: status.line };
  if (status.service?.pid !== undefined) details.pid = status.service.pid;
  if (status.service) details.seconds = status.service.seconds;
  if (status.log?.pid !== undefined) details.logPid = status.log.pid;
  if (status.error !== undefined) details.supervised = false;
  return details;
}
