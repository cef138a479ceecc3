import { posix } from "node:path";
import { errors, type ApplyContext, type ResourceChange, type Service } from "@tend/core/contract";
import { addBootLink, removeBootLink } from "./boot-link.js";
import { dinitctlFor, type Dinitctl } from "./dinitctl.js";
import { findDescription } from "./find-description.js";
import { runDinitctl, START_TIMEOUT_MS } from "./run-dinitctl.js";
import { descriptionDir, descriptionName, dinitName, logFile } from "./service-paths.js";
import { signalArgument } from "./signal-argument.js";

/**
 * Carries out an add or change, as the seed says: `dinitctl enable` and `start` for a new service;
 * for a changed description `reload` (dinit caches descriptions and keeps running the old command
 * until told to re-read it) and then `restart`. A written description is always reloaded first. dinit's `reload` only re-reads the file; the
 * `reload` operation (reloadOn) sends the service's `reloadSignal` with `dinitctl signal`.
 * Offline (`--root`) it only links the service into its boot service's `waits-for.d`.
 */
export async function applyService(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const service = change.resource;
  if (service.type !== "service") return;
  const ref = change.key;
  const name = dinitName(service);
  if (service.exec === undefined && !(await findDescription(descriptionName(name), ctx.scope, ctx.files))) {
    throw errors.distroUnitMissing(ref, `${descriptionDir(ctx.scope)}/${descriptionName(name)}`);
  }
  // dinit will not start a service whose log folder is missing; /var/log always exists.
  if (service.exec !== undefined && ctx.scope.kind === "user") await ctx.files.mkdir(posix.dirname(logFile(service, ctx.scope)));
  if (ctx.offline) {
    for (const op of change.ops) {
      if (op === "enable") await addBootLink(ref, name, ctx);
      if (op === "disable") await removeBootLink(name, ctx);
    }
    return;
  }
  const dinitctl = await dinitctlFor(ctx.scope, ctx.files);
  let stoppedForReload = false;
  // Also for an add: dinit may still hold an older description of the same name (a file adopted
  // with --adopt, or one left loaded by an earlier removal), which enable would otherwise use.
  if (service.exec !== undefined && change.filesChanged) {
    stoppedForReload = await reloadDescription(name, dinitctl, ctx);
  }
  for (const op of change.ops) {
    switch (op) {
      case "enable":
        await enable(ref, service, name, dinitctl, ctx);
        break;
      case "disable":
        // A service running only because boot waits for it stops when disabled; one that must
        // keep running is made explicitly active first.
        if (wantsRunning(service)) await runDinitctl(ctx, dinitctl, ["start", name], { timeoutMs: START_TIMEOUT_MS });
        await runDinitctl(ctx, dinitctl, ["disable", name], { benign: /not currently enabled/ });
        await removeBootLink(name, ctx);
        break;
      case "start":
        await runDinitctl(ctx, dinitctl, ["start", name], { timeoutMs: START_TIMEOUT_MS });
        break;
      case "stop":
        await runDinitctl(ctx, dinitctl, ["stop", name]);
        break;
      case "restart":
        await restart(name, stoppedForReload, dinitctl, ctx);
        break;
      case "reload":
        if (!service.reloadSignal) throw errors.cannotReload(ref, "dinit");
        await runDinitctl(ctx, dinitctl, ["signal", signalArgument(service.reloadSignal), name]);
        break;
    }
  }
}

/**
 * `dinitctl reload`. A running service refuses some changes (`could not reload service; service
 * in wrong state, incompatible change…`, e.g. a new dependency that is not started): then it is
 * stopped, reloaded and left for the following restart to start. Returns whether it was stopped.
 */
async function reloadDescription(name: string, dinitctl: Dinitctl, ctx: ApplyContext): Promise<boolean> {
  const reload = await runDinitctl(ctx, dinitctl, ["reload", name], { benign: /could not reload service/ });
  if (!reload.benign) return false;
  ctx.log(`${name}: dinit refused to reload it while running; stopping it to reload`);
  await runDinitctl(ctx, dinitctl, ["stop", name]);
  await runDinitctl(ctx, dinitctl, ["reload", name]);
  return true;
}

/**
 * `dinitctl enable` enables and starts; it exits 1 when already enabled. A service declared
 * enabled but stopped is only linked, so that enabling does not start it.
 */
async function enable(ref: string, service: Service, name: string, dinitctl: Dinitctl, ctx: ApplyContext): Promise<void> {
  if (service.desired?.state === "stopped") {
    await addBootLink(ref, name, ctx);
    return;
  }
  await runDinitctl(ctx, dinitctl, ["enable", name], { benign: /service already enabled/, timeoutMs: START_TIMEOUT_MS });
}

/**
 * `dinitctl restart --force`: without `--force` dinit refuses to restart a service others depend
 * on; with it, those dependents are restarted too, as systemd does for `Requires=`. A stopped
 * service (`service not started`) is started instead.
 */
async function restart(name: string, stopped: boolean, dinitctl: Dinitctl, ctx: ApplyContext): Promise<void> {
  if (!stopped) {
    const result = await runDinitctl(ctx, dinitctl, ["restart", "--force", name], { benign: /service not started/, timeoutMs: START_TIMEOUT_MS });
    if (!result.benign) return;
  }
  await runDinitctl(ctx, dinitctl, ["start", name], { timeoutMs: START_TIMEOUT_MS });
}

/** The core's rule: `desired.state` when given, else running for a service tend writes. */
function wantsRunning(service: Service): boolean {
  return service.desired ? service.desired.state === "running" : service.exec !== undefined;
}
