import type { ApplyContext, ResourceChange, Service } from "@tend/core";
import { rcService, rcUpdateDel } from "./rc-commands.js";
import { readRunlevels, runlevelsOf } from "./read-runlevels.js";
import { DEFAULT_RUNLEVEL, initScriptPath, runlevelLinkPath, scriptName } from "./script-name.js";

/**
 * A removal, before the core deletes the script. A tend service is stopped and taken out of
 * every runlevel (a link left behind would name a script that no longer exists); a distro
 * service is only taken out of `default`, where tend put it, and keeps running.
 */
export async function removeService(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const service = change.resource as Service;
  const script = scriptName(service);
  const ours = service.exec !== undefined;
  const present = await ctx.files.exists(initScriptPath(script));
  if (ours && present && !ctx.offline) await ctx.run.run({ argv: rcService(script, "stop") });
  const runlevels = runlevelsOf(await readRunlevels(ctx.files), script, ours ? undefined : [DEFAULT_RUNLEVEL]);
  for (const runlevel of runlevels) {
    // rc-update refuses a service whose script is gone; the link is all that is left of it.
    if (ctx.offline || !present) await ctx.files.remove(runlevelLinkPath(script, runlevel));
    else await ctx.run.run({ argv: rcUpdateDel(script, runlevel) });
  }
  if (!present && runlevels.length > 0) {
    ctx.log(`${change.key}: ${initScriptPath(script)} was already gone; removed its links from ${runlevels.join(", ")}`);
  }
}
