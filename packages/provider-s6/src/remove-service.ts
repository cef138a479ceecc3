import type { ApplyContext, ResourceChange } from "@tend/core/contract";
import { changeCommand } from "./s6-rc-commands.js";
import { serviceName } from "./s6-layout.js";

/**
 * Brings a removed service down before its files go and the next database drops it (s6-rc-update
 * would stop it too, but only after the switch; stopping first keeps the order the seed gives).
 * Exit 3 is a service the live database never had (an apply interrupted before its switch).
 */
export async function removeService(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  if (ctx.offline) return;
  await ctx.run.run({ ...changeCommand("down", [serviceName(change.resource.name)]), okCodes: [0, 3] });
}
