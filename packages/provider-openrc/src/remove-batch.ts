import type { ApplyContext, ResourceChange, Service } from "@tend/core/contract";
import { liveSupervision } from "./live-supervision.js";
import { rcService } from "./rc-commands.js";
import { readRunlevels } from "./read-runlevels.js";
import { removeFromRunlevels } from "./runlevel-links.js";
import { DEFAULT_RUNLEVEL, initScriptPath, scriptName } from "./script-name.js";
import { resetStarted, startedWithoutProcess } from "./started-without-process.js";
import { stopKeptBy } from "./stop-kept-by.js";
import { scriptSupervision } from "./supervision.js";

/**
 * A wave of removals, before the core deletes the scripts. A tend service is stopped (its whole
 * process group: see the script's stop_post) and taken out of every runlevel (a link left behind
 * would name a script that no longer exists); a distro service is only taken out of `default`,
 * where tend put it, and keeps running. The links go without a command (see runlevel-links.ts);
 * the stops are one `rc-service` each, which takes one service a call, one at a time (see
 * apply-batch.ts).
 */
export async function removeBatch(changes: ResourceChange[], ctx: ApplyContext): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  const runlevels = await readRunlevels(ctx.files);
  for (const change of changes) {
    if (change.resource.type !== "service") continue;
    try {
      await removeOne(change, change.resource, runlevels, ctx);
    } catch (error) {
      failures.set(change.key, error);
    }
  }
  return failures;
}

/** One removal: {@link removeBatch} of one. */
export async function removeService(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const failure = (await removeBatch([change], ctx)).get(change.key);
  if (failure !== undefined) throw failure;
}

async function removeOne(change: ResourceChange, service: Service, runlevels: Map<string, Set<string>>, ctx: ApplyContext): Promise<void> {
  const script = scriptName(service);
  const ours = service.exec !== undefined;
  const text = await ctx.files.readFile(initScriptPath(script));
  const present = text !== null;
  if (ours && present && !ctx.offline) {
    // A process kept another way than this script says (an apply killed between writing it and
    // restarting): its stop would miss it.
    const kept = await liveSupervision(ctx.files, script);
    if (kept !== undefined && kept !== scriptSupervision(text)) await stopKeptBy(kept, script, ctx);
    else if (await startedWithoutProcess(ctx.files, script, { live: kept })) await resetStarted(script, ctx); // its stop would fail
    else await ctx.run.run({ argv: rcService(script, "stop") });
  }
  const removed = await removeFromRunlevels(script, runlevels, ctx, ours ? undefined : [DEFAULT_RUNLEVEL]);
  if (!present && removed.length > 0) ctx.log(`${change.key}: ${initScriptPath(script)} was already gone; removed its links from ${removed.join(", ")}`);
}
