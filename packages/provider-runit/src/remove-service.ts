import type { ApplyContext, ResourceChange } from "@tend/core";
import { rendersDownFile } from "./render-service.js";
import { serviceLayout } from "./service-layout.js";
import { sv } from "./sv-command.js";

/**
 * A removal, before the core deletes the recorded artifacts (the link first, so runsvdir stops
 * the runsv at its next scan). A tend service is brought down first (`sv down`; a runsv that is
 * not running is fine), and a `down` file tend did not record is cleared so the directory can
 * go. A distro service is only unlinked, which is the core's part: its files stay.
 */
export async function removeService(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const service = change.resource;
  if (service.type !== "service" || service.exec === undefined) return;
  const layout = serviceLayout(service, ctx);
  if (!ctx.offline) await sv(ctx, ["down"], layout.dir, [0, 1]);
  if (!rendersDownFile(service) && (await ctx.files.exists(`${layout.dir}/down`))) await ctx.files.remove(`${layout.dir}/down`);
}
