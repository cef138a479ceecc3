import type { ApplyContext, ResourceChange } from "@tend/core/contract";
import { parseNameList } from "./name-list.js";
import { rcChangeBatch } from "./rc-change-batch.js";
import { listLiveServicesCommand } from "./s6-rc-commands.js";
import { serviceName } from "./s6-layout.js";
import { setAsideForeignFiles } from "./set-aside-foreign-files.js";

/**
 * Brings a wave of removed services down before their files go and the next database drops them
 * (s6-rc-update would stop them too, but only after the switch; stopping first keeps the order
 * the seed gives): one `s6-rc -d change` of those the live database holds, which waits until
 * each is down and its `./finish` has ended what was left of its session. A service the live
 * database never had (an apply interrupted before its switch) has nothing to stop. Files an admin
 * added to a removed service's folder are set aside first (see setAsideForeignFiles).
 */
export async function removeBatch(changes: ResourceChange[], ctx: ApplyContext): Promise<Map<string, unknown>> {
  for (const change of changes) await setAsideForeignFiles(change, ctx);
  if (ctx.offline || changes.length === 0) return new Map();
  const live = parseNameList((await ctx.run.run(listLiveServicesCommand())).stdout);
  const targets = changes.map((change) => ({ key: change.key, name: serviceName(change.resource.name) })).filter((t) => live.has(t.name));
  return rcChangeBatch(ctx, "down", targets, { okCodes: [0, 3] });
}

/** {@link removeBatch} for one change, throwing its failure. */
export async function removeService(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const failure = (await removeBatch([change], ctx)).get(change.key);
  if (failure !== undefined) throw failure;
}
