import type { ApplyContext, ResourceChange } from "@tend/core";
import { systemctl } from "./systemctl-command.js";
import { managerDirectories } from "./unit-directories.js";
import { ownedUnits } from "./unit-name.js";

/**
 * Once per apply, after every write and deletion: one `daemon-reload` for the scope when any
 * path below the manager's unit folders changed (tend's own units, and units or drop-ins a
 * `file` resource wrote, which the seed says also get one), then `reset-failed` for removed
 * units, so a unit that had failed is forgotten with its files. Offline there is no manager to
 * tell: it reads the files at boot.
 */
export async function reloadManagers(changes: ResourceChange[], paths: string[], ctx: ApplyContext): Promise<void> {
  if (ctx.offline) return;
  const dirs = managerDirectories(ctx.scope);
  if (paths.some((path) => dirs.some((dir) => path.startsWith(`${dir}/`)))) {
    await ctx.run.run(systemctl(ctx, ["daemon-reload"], { timeoutMs: 120_000 }));
  }
  const removed = changes.filter((c) => c.action === "remove").flatMap((c) => (c.resource.type === "file" ? [] : ownedUnits(c.resource)));
  // exits 1 for units that are not loaded (the usual case once their files are gone)
  if (removed.length > 0) await ctx.run.run(systemctl(ctx, ["reset-failed", "--", ...removed], { okCodes: [0, 1] }));
}
