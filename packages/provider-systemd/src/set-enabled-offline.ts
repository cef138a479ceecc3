import type { ApplyContext, Service, Timer } from "@tend/core/contract";
import { linkUserUnitOffline, unlinkUserUnitOffline } from "./offline-user-links.js";
import { resolveUnitName } from "./resolve-unit-name.js";
import { systemctl } from "./systemctl-command.js";
import { isDistroUnit, primaryUnit } from "./unit-name.js";

/**
 * Enables or disables a unit in an image root, with no manager running: `systemctl --root=DIR`
 * for system units (it only edits links), links made by hand for user units.
 */
export async function setEnabledOffline(resource: Service | Timer, op: "enable" | "disable", ctx: ApplyContext): Promise<void> {
  if (ctx.scope.kind === "user") {
    await (op === "enable" ? linkUserUnitOffline(resource, ctx) : unlinkUserUnitOffline(resource, ctx));
    return;
  }
  const unit = primaryUnit(resource);
  await ctx.run.run(systemctl(ctx, [op, "--", isDistroUnit(resource) ? await resolveUnitName(unit, ctx) : unit]));
}
