import { errors, type ApplyContext, type ResourceChange } from "@tend/core/contract";
import { releaseGraphicalTarget } from "./default-target.js";
import { resolveUnitName } from "./resolve-unit-name.js";
import { parseListUnitFiles } from "./parse-list-unit-files.js";
import { refusesManualOperations } from "./refused-operations.js";
import { setEnabledOffline } from "./set-enabled-offline.js";
import { systemctl } from "./systemctl-command.js";
import { isDistroUnit, ownedUnits, primaryUnit } from "./unit-name.js";

/**
 * A removal, before the core deletes the unit files. A tend unit (and a timer's `.service`) is
 * stopped and disabled with `systemctl disable --now` (only disabled when it refuses a manual
 * start or stop: the seed never stops such a unit); a distro unit is only disabled and its files
 * are left alone. The `reset-failed` that forgets a failed unit comes after the files are
 * gone and the manager reloaded (afterWrites).
 */
export async function removeChange(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const resource = change.resource;
  if (resource.type === "file" || resource.type === "package") return;
  if (ctx.offline) {
    await setEnabledOffline(resource, "disable", ctx);
  } else if (isDistroUnit(resource)) {
    await disableDistroUnit(primaryUnit(resource), ctx);
  } else if (resource.type === "service" && refusesManualOperations(resource)) {
    // Seed: never stopped by apply. 1: the unit file was already gone, so nothing is enabled.
    await ctx.run.run(systemctl(ctx, ["disable", "--", ...ownedUnits(resource)], { okCodes: [0, 1] }));
    ctx.log(notStopped(change.key));
  } else {
    const units = ownedUnits(resource);
    const result = await ctx.run.run(systemctl(ctx, ["disable", "--now", "--", ...units], { okCodes: [0, 1, 5], timeoutMs: 120_000 }));
    // 5: a unit was not loaded, so nothing ran. 1: a unit file was already gone (deleted by hand),
    // and disable stopped before stopping anything: stop what may still run. A real failure
    // (no bus, no permission) fails this stop too, and surfaces.
    if (result.exitCode !== 0) await ctx.run.run(systemctl(ctx, ["stop", "--", ...units], { okCodes: [0, 5], timeoutMs: 120_000 }));
  }
  if (resource.type === "service" && resource.displayManager) await releaseGraphicalTarget(change.key, ctx);
}

/**
 * `systemctl disable` exits 1 for a unit whose files are gone (its package was removed first),
 * which is a finished removal; it exits 1 for real failures too, told apart by asking whether
 * the unit file still exists. An alias is disabled by its real name (systemd refuses the alias).
 */
async function disableDistroUnit(name: string, ctx: ApplyContext): Promise<void> {
  const unit = await resolveUnitName(name, ctx);
  const command = systemctl(ctx, ["disable", "--", unit], { okCodes: [0, 1] });
  const result = await ctx.run.run(command);
  if (result.exitCode === 0) return;
  const check = await ctx.run.run(systemctl(ctx, ["list-unit-files", "--output=json", "--", unit], { okCodes: [0, 1] }));
  if (check.stdout.trim().startsWith("[") && !parseListUnitFiles(check.stdout).has(unit)) return;
  throw errors.commandFailed(command.argv, result.exitCode, result.stderr.trim());
}

/** The apply log's line for a removed unit that refuses a manual stop, left to whatever stops it. */
export function notStopped(key: string): string {
  return `${key}: disabled, not stopped: its unit refuses a manual start or stop (it stops with the host)`;
}
