import type { Probe, ReadContext, Resource } from "@tend/core/contract";
import { describeStatus } from "./describe-status.js";
import { parseSvstatBatch } from "./parse-svstat-batch.js";
import { liveServiceDir } from "./s6-layout.js";
import { svstatBatchCommand } from "./svstat-batch.js";

/**
 * Health readings from s6-svstat, all services in one command. Up means a process runs `./run`
 * and, for a service directory with a `notification-fd` (the program notifies readiness), that it
 * said it is ready. The identity is the pid with the time of the last up/down change, so a
 * respawn is seen even when the kernel hands out the same pid again.
 */
export async function probeServices(resources: Resource[], ctx: ReadContext): Promise<Map<string, Probe>> {
  const services = resources.filter((r) => r.type === "service");
  const result = new Map<string, Probe>();
  if (services.length === 0) return result;
  const dirs = services.map((s) => liveServiceDir(s.name));
  const statuses = parseSvstatBatch((await ctx.run.run(svstatBatchCommand(dirs))).stdout);
  for (const service of services) {
    const dir = liveServiceDir(service.name);
    const status = statuses.get(dir);
    const notifies = await ctx.files.exists(`${dir}/notification-fd`);
    const up = status?.supervised === true && status.up && (!notifies || status.ready);
    const identity = status?.supervised && status.pid !== undefined ? `${status.pid}:${status.since}` : undefined;
    result.set(`service:${service.name}`, {
      up,
      ...(identity !== undefined ? { identity } : {}),
      detail: `${dir}: ${describeStatus(status, notifies)}`,
    });
  }
  return result;
}
