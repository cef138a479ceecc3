import type { Observation, ReadContext, Resource, Service } from "@tend/core/contract";
import { parseNameList } from "./name-list.js";
import { parseSvstatBatch } from "./parse-svstat-batch.js";
import { bundleContentsCommand, compiledServicesCommand, listLiveServicesCommand, listUpCommand } from "./s6-rc-commands.js";
import { CURRENT_DATABASE, LIVE_DIR, liveServiceDir, serviceName } from "./s6-layout.js";
import { svstatBatchCommand } from "./svstat-batch.js";
import { describeStatus } from "./describe-status.js";

/**
 * Observes every tend service with a fixed number of commands: `s6-rc -a list` (what s6-rc
 * considers up), `s6-rc-db list services` (what the live database holds), the `tend` bundle of
 * the database boot uses, and one s6-svstat loop over the live service directories.
 *
 * - `exists`: the service is in the live database (offline: in the compiled `current` one).
 * - `state`: running when s6-rc considers it up *and* s6-supervise still wants it up. s6-rc's list
 *   alone is bookkeeping: a longrun whose `finish` exited 125, or that someone downed with
 *   `s6-svc -d`, stays listed as up. A program between two respawns is still running, as Datum
 *   asks (active, not "has a process"); verification catches a crash loop. Offline: unobservable.
 * - `enabled`: a member of the `tend` bundle in `/etc/s6/db/current`, the database s6-rc-init
 *   boots on. Whether the host's boot bundle includes `tend` is the host's set-up (see README).
 */
export async function observeServices(resources: Resource[], ctx: ReadContext): Promise<Map<string, Observation>> {
  const services = resources.filter((r): r is Service => r.type === "service");
  const result = new Map<string, Observation>();
  if (services.length === 0) return result;
  const enabled = await readBundleContents(ctx);
  const live = ctx.root === undefined && (await ctx.files.isDirectory(LIVE_DIR));
  if (!live) {
    const known = await readCompiledServices(ctx);
    for (const service of services) {
      const name = serviceName(service.name);
      result.set(`service:${service.name}`, { exists: known.has(name), enabled: enabled.has(name) });
    }
    return result;
  }
  const up = parseNameList((await ctx.run.run(listUpCommand())).stdout);
  const inDatabase = parseNameList((await ctx.run.run(listLiveServicesCommand())).stdout);
  const supervised = services.filter((s) => inDatabase.has(serviceName(s.name))).map((s) => liveServiceDir(s.name));
  const statuses = supervised.length > 0 ? parseSvstatBatch((await ctx.run.run(svstatBatchCommand(supervised))).stdout) : new Map();
  for (const service of services) {
    const name = serviceName(service.name);
    const status = statuses.get(liveServiceDir(service.name));
    if (!inDatabase.has(name)) {
      result.set(`service:${service.name}`, { exists: false, state: "stopped", enabled: enabled.has(name) });
      continue;
    }
    const running = up.has(name) && status?.supervised === true && status.wantedUp;
    const details: Record<string, string | number | boolean> = { "s6-rc": up.has(name) ? "up" : "down", supervise: describeStatus(status) };
    if (status?.supervised && status.pid !== undefined) details.pid = status.pid;
    result.set(`service:${service.name}`, { exists: true, state: running ? "running" : "stopped", enabled: enabled.has(name), details });
  }
  return result;
}

/** The `tend` bundle's members in the database boot uses; empty before the first compile. */
async function readBundleContents(ctx: ReadContext): Promise<Set<string>> {
  if (!(await ctx.files.exists(CURRENT_DATABASE))) return new Set();
  const answer = await ctx.run.run(bundleContentsCommand(ctx.files.real(CURRENT_DATABASE)));
  return answer.exitCode === 3 ? new Set() : parseNameList(answer.stdout);
}

async function readCompiledServices(ctx: ReadContext): Promise<Set<string>> {
  if (!(await ctx.files.exists(CURRENT_DATABASE))) return new Set();
  const answer = await ctx.run.run(compiledServicesCommand(ctx.files.real(CURRENT_DATABASE)));
  return parseNameList(answer.stdout);
}
