import { resourceKey, type Probe, type ReadContext, type Resource, type Service } from "@tend/core/contract";
import { parseRcStatus } from "./parse-rc-status.js";
import { RC_STATUS_ARGV } from "./rc-commands.js";
import { readDaemon } from "./read-daemon.js";
import { scriptName } from "./script-name.js";
import { supervisionOf } from "./supervision.js";

/**
 * Health readings: up when OpenRC counts the service started and the process it recorded is
 * alive. The identity is that pid plus supervise-daemon's respawn count, so a program that
 * exits during the settle window shows, whether supervise-daemon respawned it or not.
 * A supervised service is not up until supervise-daemon has written its child's pid.
 */
export async function probeServices(resources: Resource[], ctx: ReadContext): Promise<Map<string, Probe>> {
  const services = resources.filter((resource): resource is Service => resource.type === "service");
  const probes = new Map<string, Probe>();
  if (services.length === 0) return probes;
  const statuses = parseRcStatus((await ctx.run.run({ argv: RC_STATUS_ARGV })).stdout);
  for (const service of services) {
    const script = scriptName(service);
    const supervision = service.exec === undefined ? undefined : supervisionOf(service);
    const entry = statuses.get(script);
    const status = entry?.status ?? "stopped";
    const daemon = status === "started" ? await readDaemon(ctx.files, script, supervision) : {};
    const up = status === "started" && daemon.alive !== false && (supervision !== "supervise-daemon" || daemon.pid !== undefined);
    const parts = [`${script} ${status}`];
    if (daemon.pid !== undefined) parts.push(`pid ${daemon.pid}${daemon.alive === false ? " (gone)" : ""}`);
    if (entry?.respawns !== undefined) parts.push(`${entry.respawns} respawns`);
    const probe: Probe = { up, detail: parts.join(", ") };
    if (daemon.pid !== undefined) probe.identity = entry?.respawns === undefined ? `pid ${daemon.pid}` : `pid ${daemon.pid}, ${entry.respawns} respawns`;
    probes.set(resourceKey("service", service.name), probe);
  }
  return probes;
}
