import type { ApplyContext, ResourceChange } from "@tend/core/contract";
import { linksTo } from "./links-to.js";
import { rendersDownFile } from "./down-file.js";
import { serviceLayout } from "./service-layout.js";
import { svBatch, type SvTarget } from "./sv-batch.js";

/**
 * A wave of removals, before the core deletes the recorded artifacts. The wave's tend services
 * are brought down with one `sv -v down`, which waits until each is down: its `./control/t` and
 * `./finish` have ended the program's whole process group (a runsv that is gone is fine; a
 * service still up after the wait fails its removal, so nothing is deleted under it). The system
 * ones are then disabled the runit way, by removing their links, and their runsv told to exit
 * and waited for with one `sv -v exit` (otherwise runsv lives on until runsvdir's next scan,
 * complaining about its missing `supervise/`); unlinking first keeps runsvdir from starting a
 * fresh one. A user service's directory is itself the scanned entry: its runsv ends at the user
 * runsvdir's next scan. A `down` file tend did not record is cleared so the directory can go. A
 * distro service is only unlinked, which is the core's part: its files stay.
 */
export async function removeBatch(changes: ResourceChange[], ctx: ApplyContext): Promise<Map<string, unknown>> {
  const items = changes.flatMap((change) =>
    change.resource.type === "service" && change.resource.exec !== undefined ? [{ change, service: change.resource, layout: serviceLayout(change.resource, ctx) }] : [],
  );
  const failures = new Map<string, unknown>();
  if (!ctx.offline && items.length > 0) {
    const down = await svBatch(
      ctx,
      ["-v", "-w", "15", "down"],
      items.map((item) => ({ key: item.change.key, dir: item.layout.dir })),
      { failed: (status) => status.checked === false },
    );
    down.forEach((error, key) => failures.set(key, error));
    const unlinked: SvTarget[] = [];
    for (const { change, layout } of items) {
      if (failures.has(change.key) || !layout.link || !(await linksTo(ctx.files, layout.link, layout.dir))) continue;
      await ctx.files.remove(layout.link);
      unlinked.push({ key: change.key, dir: layout.dir });
    }
    await svBatch(ctx, ["-v", "-w", "10", "exit"], unlinked, { failed: () => false });
  }
  for (const { change, service, layout } of items) {
    if (failures.has(change.key)) continue;
    if (!rendersDownFile(service) && (await ctx.files.exists(`${layout.dir}/down`))) await ctx.files.remove(`${layout.dir}/down`);
  }
  return failures;
}

/** {@link removeBatch} for one change, throwing its failure. */
export async function removeService(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const failure = (await removeBatch([change], ctx)).get(change.key);
  if (failure !== undefined) throw failure;
}
