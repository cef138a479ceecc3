import type { ApplyContext, ResourceChange } from "@tend/core/contract";
import { serviceLayout } from "./service-layout.js";
import { TRANSIENT_DOWN_CONTENT } from "./down-file.js";
import { holdsTransientDown, unsupervisedChanges } from "./transient-down.js";
import { ensureUserRunsvdir, scopeRunsvdir } from "./user-runsvdir.js";

/**
 * Once the core has written every artifact: the transient `down` files of services added
 * stopped (and of changed ones that no runsv supervises yet), and, for user
 * services, the user's `tend-runsvdir-<user>` system service (created by the first user service,
 * so this needs root; never removed by tend).
 */
export async function afterWrites(changes: ResourceChange[], _paths: string[], ctx: ApplyContext): Promise<void> {
  const unsupervised = await unsupervisedChanges(changes, ctx);
  for (const change of changes) {
    if (!(holdsTransientDown(change, ctx) || unsupervised.includes(change)) || change.resource.type !== "service") continue;
    await ctx.files.writeFile(`${serviceLayout(change.resource, ctx).dir}/down`, TRANSIENT_DOWN_CONTENT, { mode: 0o644 });
  }
  const userServices = changes.some((c) => c.action !== "remove" && c.resource.type === "service" && c.resource.user === true && c.resource.exec !== undefined);
  if (userServices) await ensureUserRunsvdir(scopeRunsvdir(ctx), ctx);
}
