import type { ApplyContext, ResourceChange } from "@tend/core/contract";
import { parseNameList } from "./name-list.js";
import { rcChangeBatch } from "./rc-change-batch.js";
import { allDependentsCommand, listLiveServicesCommand, listUpCommand } from "./s6-rc-commands.js";
import { serviceName } from "./s6-layout.js";
import { setAsideForeignFiles } from "./set-aside-foreign-files.js";

/** A removed service the live database holds. */
interface Target {
  key: string;
  name: string;
}

/**
 * Brings a wave of removed services down before their files go and the next database drops them
 * (s6-rc-update would stop them too, but only after the switch; stopping first keeps the order
 * the seed gives): one `s6-rc -d change` of those the live database holds, which waits until
 * each is down and its `./finish` has ended what was left of its session. A service the live
 * database never had (an apply interrupted before its switch) has nothing to stop. Files an admin
 * added to a removed service's folder are set aside first (see setAsideForeignFiles).
 *
 * A removed service that a service this wave keeps depends on is left to s6-rc-update: `s6-rc -d`
 * would bring those dependents down with it, and everything after them, and the switch would
 * start only the ones it restarts for a changed definition. The spec no longer declares such a
 * dependency (plan refuses one on a service it removes), so those dependents change in this
 * apply; s6-rc-update stops the removed service at the switch and restarts what depends on it,
 * all of it, as plan says.
 */
export async function removeBatch(changes: ResourceChange[], ctx: ApplyContext): Promise<Map<string, unknown>> {
  for (const change of changes) await setAsideForeignFiles(change, ctx);
  if (ctx.offline || changes.length === 0) return new Map();
  const live = parseNameList((await ctx.run.run(listLiveServicesCommand())).stdout);
  const targets = changes.map((change) => ({ key: change.key, name: serviceName(change.resource.name) })).filter((t) => live.has(t.name));
  return rcChangeBatch(ctx, "down", await withoutKeptDependents(targets, ctx), { okCodes: [0, 3] });
}

/**
 * The targets whose `s6-rc -d` brings down no running service this wave keeps: one query for the
 * wave, and, only when something kept depends on one of them, which services are up and one
 * query for each target.
 */
async function withoutKeptDependents(targets: Target[], ctx: ApplyContext): Promise<Target[]> {
  if (targets.length === 0) return targets;
  const removing = new Set(targets.map((target) => target.name));
  const dependents = async (names: string[]) => [...parseNameList((await ctx.run.run(allDependentsCommand(names))).stdout)].filter((name) => !removing.has(name));
  const all = await dependents([...removing]);
  if (all.length === 0) return targets;
  const up = parseNameList((await ctx.run.run(listUpCommand())).stdout);
  if (!all.some((name) => up.has(name))) return targets;
  const keptOf = async (names: string[]) => (await dependents(names)).filter((name) => up.has(name));
  const now: Target[] = [];
  for (const target of targets) {
    const kept = await keptOf([target.name]);
    if (kept.length === 0) now.push(target);
    else ctx.log(`${target.name}: stopped by s6-rc-update at the switch, which restarts ${kept.join(", ")}, as ${kept.length === 1 ? "it depends" : "they depend"} on it`);
  }
  return now;
}

/** {@link removeBatch} for one change, throwing its failure. */
export async function removeService(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const failure = (await removeBatch([change], ctx)).get(change.key);
  if (failure !== undefined) throw failure;
}
