import type { ApplyContext, ResourceChange } from "@tend/core";
import { linksTo } from "./links-to.js";
import { rendersDownFile } from "./render-service.js";
import { serviceLayout } from "./service-layout.js";
import { sv } from "./sv-command.js";

/**
 * A removal, before the core deletes the recorded artifacts. A tend service is brought down
 * (`sv down`, as the seed says; a runsv that is gone is fine). A system one is then disabled the
 * runit way, by removing its link, and its runsv is told to exit and waited for (`sv -v exit`),
 * so the process, its log service and runsv are gone before the core deletes the directory
 * under them (otherwise runsv lives on until runsvdir's next scan, complaining about its missing
 * `supervise/`). Unlinking first keeps runsvdir from starting a fresh runsv. A user service's
 * directory is itself the scanned entry: its runsv ends at the user runsvdir's next scan.
 * A `down` file tend did not record is cleared so the directory can go. A distro service is only
 * unlinked, which is the core's part: its files stay.
 */
export async function removeService(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const service = change.resource;
  if (service.type !== "service" || service.exec === undefined) return;
  const layout = serviceLayout(service, ctx);
  if (!ctx.offline) {
    await sv(ctx, ["down"], layout.dir, [0, 1]);
    if (layout.link && (await linksTo(ctx.files, layout.link, layout.dir))) {
      await ctx.files.remove(layout.link);
      await sv(ctx, ["-v", "-w", "10", "exit"], layout.dir, [0, 1]);
    }
  }
  if (!rendersDownFile(service) && (await ctx.files.exists(`${layout.dir}/down`))) await ctx.files.remove(`${layout.dir}/down`);
}
