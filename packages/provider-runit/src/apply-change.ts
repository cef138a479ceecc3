import { errors, type ApplyContext, type Operation, type ResourceChange, type Service } from "@tend/core";
import { linksTo } from "./links-to.js";
import { rendersDownFile } from "./render-service.js";
import { restartEarlyRunsv } from "./restart-early-runsv.js";
import { serviceLayout, type ServiceLayout } from "./service-layout.js";
import { sv } from "./sv-command.js";
import { svSignalCommand } from "./sv-signal-command.js";
import { holdsTransientDown } from "./transient-down.js";
import { ensureUserRunsvdir, scopeRunsvdir } from "./user-runsvdir.js";
import { waitForPickup } from "./wait-for-pickup.js";

const RUNTIME_OPS: Operation[] = ["start", "stop", "restart", "reload"];

/** What to check when runsv does not show up. */
function pickupHint(layout: ServiceLayout, ctx: ApplyContext): string {
  if (!layout.user) return "Is runsvdir running over /etc/runit/runsvdir/default (runit as init, or its runit service)? Check `sv status /etc/service/*`";
  const runsvdir = scopeRunsvdir(ctx);
  return `The user's services run under ${runsvdir.dir}; check \`sv status ${runsvdir.dir}\``;
}

/**
 * An add or change, after the core wrote the artifacts. An add runs no command (runsvdir picks
 * the link up within five seconds) but waits until runsv supervises the directory, so the
 * operations after it reach a runsv. Under `--root` only file work happens.
 */
export async function applyChange(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const service = change.resource;
  if (service.type !== "service") return;
  const layout = serviceLayout(service, ctx);
  if (layout.user) await ensureUserRunsvdir(scopeRunsvdir(ctx), ctx);

  const runtime = change.ops.some((op) => RUNTIME_OPS.includes(op));
  const stoppedOnAdd = change.action === "add" && service.desired?.state === "stopped";
  if (!ctx.offline && (runtime || change.action === "add") && (!layout.distro || runtime || stoppedOnAdd)) {
    await waitForPickup(layout.dir, ctx, pickupHint(layout, ctx));
    if (change.action === "add" && !layout.distro) await restartEarlyRunsv(layout.dir, ctx, pickupHint(layout, ctx));
  }
  if (holdsTransientDown(change, ctx)) {
    await ctx.files.remove(`${layout.dir}/down`);
  } else if (stoppedOnAdd && !ctx.offline && !change.ops.includes("stop")) {
    // Linking started it (a distro service, or a tend service that is not to start at boot either).
    await sv(ctx, ["down"], layout.dir);
  }
  for (const op of change.ops) await runOperation(op, service, layout, change.key, ctx);
}

async function runOperation(op: Operation, service: Service, layout: ServiceLayout, ref: string, ctx: ApplyContext): Promise<void> {
  switch (op) {
    case "enable":
      // The link is an artifact; a `down` file tend did not write would still keep it from booting.
      if (!layout.distro && !rendersDownFile(service) && (await ctx.files.exists(`${layout.dir}/down`))) {
        await ctx.files.remove(`${layout.dir}/down`);
        ctx.log(`${ref}: removed ${layout.dir}/down, which kept it from starting at boot`);
      }
      return;
    case "disable":
      // A tend service is disabled by its `down` artifact; a distro service by unlinking it.
      if (layout.distro && (await linksTo(ctx.files, layout.link, layout.dir))) await ctx.files.remove(layout.link);
      return;
    case "start":
      if (!ctx.offline) await sv(ctx, ["up"], layout.dir);
      return;
    case "stop":
      if (!ctx.offline) await sv(ctx, ["down"], layout.dir);
      return;
    case "restart":
      if (!ctx.offline) await restart(service, layout, ctx);
      return;
    case "reload": {
      const command = service.reloadSignal && svSignalCommand(service.reloadSignal);
      if (!command) throw errors.cannotReload(ref, "runit");
      if (!ctx.offline) await sv(ctx, [command], layout.dir);
      return;
    }
  }
}

/**
 * `sv restart` sends TERM and asks for up, but the process's end runs `./finish` first, and the
 * finish of `restart = "no"` (and of `"on_failure"` for a program that exits 0 on TERM) would turn
 * the restart into a stop (verified: `sv restart` left both down). Those are stopped and waited
 * for (`sv stop`, at most 7 s), then started again.
 */
async function restart(service: Service, layout: ServiceLayout, ctx: ApplyContext): Promise<void> {
  if (layout.distro || service.restart === "always") {
    await sv(ctx, ["restart"], layout.dir);
    return;
  }
  await sv(ctx, ["stop"], layout.dir);
  await sv(ctx, ["up"], layout.dir);
}
