import type { ApplyContext, ResourceChange } from "@tend/core/contract";
import { parseShowOutput } from "./parse-show-output.js";
import { systemctl } from "./systemctl-command.js";
import { managerDirectories } from "./unit-directories.js";
import { isDistroUnit, ownedUnits, primaryUnit } from "./unit-name.js";

/**
 * Once per apply, after every write and deletion: one `daemon-reload` for the scope when any
 * path below the manager's unit folders changed (tend's own units, and units or drop-ins a
 * `file` resource wrote, which the seed says also get one), then `reset-failed` for removed
 * units, so a unit that had failed is forgotten with its files. Offline there is no manager to
 * tell: it reads the files at boot.
 *
 * When no unit file changed but core says a change's files did (`filesChanged`: a restart an
 * earlier apply left pending, a definition older than its file), it reloads too. Otherwise, when
 * units are about to be started, restarted or reloaded, systemd is asked whether it still holds
 * an old definition of any (`NeedDaemonReload`): an apply killed between writing a unit and
 * reloading leaves exactly that, and a restart would then run the old definition.
 */
export async function reloadManagers(changes: ResourceChange[], paths: string[], ctx: ApplyContext): Promise<void> {
  if (ctx.offline) return;
  const dirs = managerDirectories(ctx.scope);
  const wrote = paths.some((path) => dirs.some((dir) => path.startsWith(`${dir}/`)));
  // Core's word that a unit's files are newer than what systemd may hold (a restart an earlier,
  // killed apply left pending; a definition older than the file): reloaded whatever the times say.
  const told = changes.some((c) => c.action !== "remove" && c.filesChanged && (c.resource.type === "service" || c.resource.type === "timer"));
  if (wrote || told || (await holdsStaleUnits(changes, ctx))) {
    await ctx.run.run(systemctl(ctx, ["daemon-reload"], { timeoutMs: 120_000 }));
  }
  const removed = changes.filter((c) => c.action === "remove").flatMap((c) => (c.resource.type === "file" || c.resource.type === "package" ? [] : ownedUnits(c.resource)));
  // exits 1 for units that are not loaded (the usual case once their files are gone)
  if (removed.length > 0) await ctx.run.run(systemctl(ctx, ["reset-failed", "--", ...removed], { okCodes: [0, 1] }));
}

async function holdsStaleUnits(changes: ResourceChange[], ctx: ApplyContext): Promise<boolean> {
  const units = changes
    .filter((c) => c.action !== "remove" && c.ops.some((op) => op === "start" || op === "restart" || op === "reload"))
    .flatMap((c) => (c.resource.type === "file" || c.resource.type === "package" ? [] : isDistroUnit(c.resource) ? [primaryUnit(c.resource)] : ownedUnits(c.resource)));
  if (units.length === 0) return false;
  const unique = [...new Set(units)];
  const result = await ctx.run.run(systemctl(ctx, ["show", "-p", "Id,NeedDaemonReload", "--", ...unique]));
  return [...parseShowOutput(result.stdout, unique).values()].some((properties) => properties.NeedDaemonReload === "yes");
}
