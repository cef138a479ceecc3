import type { Observation, ReadContext, Resource, Service } from "@tend/core/contract";
import { findDescription } from "./find-description.js";
import { listServices } from "./list-services.js";
import { predictBoot } from "./predict-boot.js";
import { resolveEnableLink } from "./resolve-enable-link.js";
import { descriptionName, dinitName } from "./service-paths.js";

/**
 * Observes every service with one `dinitctl list` plus file reads: `exists` is the description
 * file (an unloaded service is missing from the list, and `dinitctl status` answers the same for
 * unloaded and nonexistent ones), or dinit holding it loaded (a description deleted by hand while
 * the service runs: apply writes it again and restarts the service, where a start would do
 * nothing); `state` comes from the list, `enabled` from the link in the `waits-for.d` folder of
 * the service it is enabled from. Under `--root` nothing runs: `state` is unobservable.
 */
export async function observeServices(resources: Resource[], ctx: ReadContext): Promise<Map<string, Observation>> {
  const services = resources.filter((r): r is Service => r.type === "service");
  const listed = ctx.root === undefined && services.length > 0 ? await listServices(ctx) : undefined;
  const observations = new Map<string, Observation>();
  for (const service of services) {
    const name = dinitName(service);
    const description = await findDescription(descriptionName(name), ctx.scope, ctx.files);
    const link = await resolveEnableLink(name, ctx.scope, ctx.files);
    const linked = link.kind === "link" && (await ctx.files.exists(link.path));
    const entry = listed?.ok ? listed.services.get(name) : undefined;
    const details: Record<string, string | number | boolean> = { service: name };
    if (description) details.description = description.path;
    details.enabledVia = link.via;
    if (link.kind === "link") details.link = link.path;
    if (entry) {
      details.list = entry.line;
      if (entry.pid !== undefined) details.pid = entry.pid;
    } else if (listed?.ok) {
      details.list = "not loaded";
    } else if (listed) {
      details.unreachable = listed.why;
    }
    const observation: Observation = {
      exists: description !== undefined || entry !== undefined,
      unitFileState: !description ? "missing" : link.kind === "fixed" ? "fixed" : linked ? "enabled" : "disabled",
      canReload: false,
      details,
    };
    // A fixed dependency (`waits-for = NAME` in boot itself) is enabled for good: dinitctl can
    // neither add nor remove it, so it is left out of the comparison, like a static systemd unit.
    if (link.kind !== "fixed") observation.enabled = linked;
    const atBoot = description ? predictBoot(link, linked, ctx.scope) : undefined;
    if (atBoot) observation.atBoot = atBoot;
    if (listed?.ok) observation.state = entry && (entry.state === "started" || entry.state === "starting") ? "running" : "stopped";
    if (observation.state === "running" && entry?.pid !== undefined) observation.mainPid = entry.pid;
    observations.set(`service:${service.name}`, observation);
  }
  return observations;
}
