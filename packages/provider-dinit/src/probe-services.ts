import type { Probe, ReadContext, Resource, Service } from "@tend/core/contract";
import { listServices } from "./list-services.js";
import { dinitName } from "./service-paths.js";

/**
 * Health from one `dinitctl list`: up only when dinit says started (`+`), which for a service
 * declaring `ready-notification` means it signalled readiness (until then it is starting, `<<`).
 * The identity is the pid, which moves when dinit restarts a crashing process.
 */
export async function probeServices(resources: Resource[], ctx: ReadContext): Promise<Map<string, Probe>> {
  const services = resources.filter((r): r is Service => r.type === "service");
  const probes = new Map<string, Probe>();
  if (services.length === 0) return probes;
  const listed = await listServices(ctx);
  for (const service of services) {
    const name = dinitName(service);
    const key = `service:${service.name}`;
    if (!listed.ok) {
      probes.set(key, { up: false, detail: `cannot reach dinit: ${listed.why}` });
      continue;
    }
    const entry = listed.services.get(name);
    if (!entry) {
      probes.set(key, { up: false, detail: `${name} is not loaded in dinit` });
      continue;
    }
    const probe: Probe = { up: entry.state === "started", detail: entry.line.trim() };
    probe.identity = entry.pid !== undefined ? `pid ${entry.pid}` : entry.state;
    probes.set(key, probe);
  }
  return probes;
}
