import type { ApplyContext, Operation, ResourceChange } from "@tend/core/contract";
import { holdGraphicalTarget } from "./default-target.js";
import { resolveUnitName } from "./resolve-unit-name.js";
import { setEnabledOffline } from "./set-enabled-offline.js";
import { systemctl } from "./systemctl-command.js";
import { isDistroUnit, primaryUnit } from "./unit-name.js";

/**
 * Deadlines for systemctl's jobs: start, stop, restart and reload wait for the job, and systemd's
 * own default start and stop timeouts are 90 s.
 */
const TIMEOUT_MS: Record<Operation, number> = {
  enable: 60_000,
  disable: 60_000,
  start: 120_000,
  stop: 120_000,
  restart: 120_000,
  reload: 120_000,
};

const PAST: Record<Operation, string> = { enable: "enabled", disable: "disabled", start: "started", stop: "stopped", restart: "restarted", reload: "reloaded" };

/**
 * Carries out an add or a change: each operation on the resource's unit (a timer's `.timer`),
 * `systemctl <op> -- <unit>`. `reload` is `systemctl reload`, never `reload-or-restart`, which
 * would restart a unit that cannot reload. A display manager first makes graphical.target the
 * default. A distro unit is enabled and disabled by its real name (not an alias, which systemd
 * refuses). Offline (`--root`), units are enabled and disabled in the image and nothing is
 * started, stopped or reloaded.
 */
export async function applyChange(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const resource = change.resource;
  if (resource.type === "file" || resource.type === "package") return;
  if (resource.type === "service" && resource.displayManager) await holdGraphicalTarget(change.key, ctx);
  const unit = primaryUnit(resource);
  const skipped: Operation[] = [];
  for (const op of change.ops) {
    if (!ctx.offline) {
      const name = (op === "enable" || op === "disable") && isDistroUnit(resource) ? await resolveUnitName(unit, ctx) : unit;
      await ctx.run.run(systemctl(ctx, [op, "--", name], { timeoutMs: TIMEOUT_MS[op] }));
    } else if (op === "enable" || op === "disable") {
      await setEnabledOffline(resource, op, ctx);
    } else {
      skipped.push(op);
    }
  }
  if (skipped.length > 0) {
    ctx.log(`${change.key}: not ${skipped.map((op) => PAST[op]).join(" or ")}: applying into an image root, where nothing runs until it boots`);
  }
}
