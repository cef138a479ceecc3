import type { Observation, ReadContext, Resource, Service } from "@tend/core/contract";
import { currentDatabase, diskDigest, readCompiledSources, renderedDigest, type CompiledSources } from "./compiled-sources.js";
import { describeStatus } from "./describe-status.js";
import { parseNameList } from "./name-list.js";
import { parseSvstatBatch } from "./parse-svstat-batch.js";
import { defaultBundleHoldsTend, predictBoot } from "./predict-boot.js";
import { renderLongrun } from "./render-longrun.js";
import { bundleContentsCommand, compiledServicesCommand, listLiveServicesCommand, listUpCommand } from "./s6-rc-commands.js";
import { CURRENT_DATABASE, LIVE_DIR, liveServiceDir, serviceName, sourceDir } from "./s6-layout.js";
import { svstatBatchCommand } from "./svstat-batch.js";

/**
 * Observes every tend service with a fixed number of commands: `s6-rc -a list` (what s6-rc
 * considers up), `s6-rc-db list services` (what the live database holds) and one s6-svstat loop
 * over the live service directories. What the database boot uses (`/etc/s6/db/current`) holds
 * is read from the note tend keeps beside each database it compiles (see compiled-sources.ts),
 * or, for a database tend did not compile, with `s6-rc-db -c`.
 *
 * - `exists`: the service is in the live database (offline: in the compiled `current` one).
 * - `state`: running when s6-rc considers it up *and* s6-supervise still wants it up. s6-rc's list
 *   alone is bookkeeping: a longrun whose `finish` exited 125, or that someone downed with
 *   `s6-svc -d`, stays listed as up. A program between two respawns is still running, as Datum
 *   asks (active, not "has a process"); verification catches a crash loop. Offline: unobservable.
 * - `enabled`: a member of the `tend` bundle in the database s6-rc-init boots on. Whether the
 *   host's boot bundle includes `tend` is the host's set-up (see README).
 * - `drift`: the database boot uses was compiled from another definition than the one on disk,
 *   which is the one tend renders (an apply stopped between its writes and its compile): apply
 *   compiles again.
 */
export async function observeServices(resources: Resource[], ctx: ReadContext): Promise<Map<string, Observation>> {
  const services = resources.filter((r): r is Service => r.type === "service");
  const result = new Map<string, Observation>();
  if (services.length === 0) return result;
  const compiled = await readCompiledSources(ctx.files);
  const enabled = compiled ? compiled.sources.bundle : await readBundleContents(ctx);
  const stale = await staleDefinitions(services, compiled, ctx);
  const defaultHoldsTend = await defaultBundleHoldsTend(ctx.files);
  const withDrift = (key: string, observation: Observation): Observation => {
    const drift = stale.get(key);
    const atBoot = observation.exists ? { atBoot: predictBoot(observation.enabled === true, defaultHoldsTend) } : {};
    return drift ? { ...observation, ...atBoot, drift: [drift] } : { ...observation, ...atBoot };
  };
  const live = ctx.root === undefined && (await ctx.files.isDirectory(LIVE_DIR));
  if (!live) {
    const known = compiled ? new Set(compiled.sources.services.keys()) : await readCompiledServices(ctx);
    for (const service of services) {
      const name = serviceName(service.name);
      const key = `service:${service.name}`;
      result.set(key, withDrift(key, { exists: known.has(name), enabled: enabled.has(name) }));
    }
    return result;
  }
  const up = parseNameList((await ctx.run.run(listUpCommand())).stdout);
  const inDatabase = parseNameList((await ctx.run.run(listLiveServicesCommand())).stdout);
  const supervised = services.filter((s) => inDatabase.has(serviceName(s.name))).map((s) => liveServiceDir(s.name));
  const statuses = supervised.length > 0 ? parseSvstatBatch((await ctx.run.run(svstatBatchCommand(supervised))).stdout) : new Map();
  for (const service of services) {
    const name = serviceName(service.name);
    const key = `service:${service.name}`;
    const status = statuses.get(liveServiceDir(service.name));
    if (!inDatabase.has(name)) {
      result.set(key, withDrift(key, { exists: false, state: "stopped", enabled: enabled.has(name) }));
      continue;
    }
    const running = up.has(name) && status?.supervised === true && status.wantedUp;
    const details: Record<string, string | number | boolean> = { "s6-rc": up.has(name) ? "up" : "down", supervise: describeStatus(status) };
    if (status?.supervised && status.pid !== undefined) details.pid = status.pid;
    const mainPid = running && status?.pid !== undefined ? { mainPid: status.pid as number } : {};
    result.set(key, withDrift(key, { exists: true, state: running ? "running" : "stopped", enabled: enabled.has(name), details, ...mainPid }));
  }
  return result;
}

/**
 * Services whose definition in the database boot uses is not the one tend renders, while the
 * one on disk is: no write is coming to trigger a compile, so it is drift. (A definition that
 * differs on disk too is rewritten by the core, and the compile follows.) Only for databases tend
 * compiled; the disk is read only for services whose compiled definition is out of date.
 */
async function staleDefinitions(services: Service[], compiled: { database: string; sources: CompiledSources } | undefined, ctx: ReadContext): Promise<Map<string, string>> {
  const stale = new Map<string, string>();
  if (!compiled) return stale;
  for (const service of services) {
    if (service.exec === undefined) continue;
    const name = serviceName(service.name);
    let wanted: string;
    try {
      wanted = renderedDigest(name, renderLongrun(service));
    } catch {
      continue; // plan reports why it cannot be rendered
    }
    const held = compiled.sources.services.get(name);
    if (held === wanted || (await diskDigest(name, ctx.files)) !== wanted) continue;
    stale.set(
      `service:${service.name}`,
      `${compiled.database}, the database boot uses, ${held === undefined ? "does not hold" : "holds an older definition of"} ${name} than ${sourceDir(service.name)}: apply compiles it again`,
    );
  }
  return stale;
}

/** The `tend` bundle's members in the database boot uses; empty before the first compile. */
async function readBundleContents(ctx: ReadContext): Promise<Set<string>> {
  if (!(await currentDatabase(ctx.files))?.exists) return new Set();
  const answer = await ctx.run.run(bundleContentsCommand(ctx.files.real(CURRENT_DATABASE)));
  return answer.exitCode === 3 ? new Set() : parseNameList(answer.stdout);
}

async function readCompiledServices(ctx: ReadContext): Promise<Set<string>> {
  if (!(await currentDatabase(ctx.files))?.exists) return new Set();
  const answer = await ctx.run.run(compiledServicesCommand(ctx.files.real(CURRENT_DATABASE)));
  return parseNameList(answer.stdout);
}
