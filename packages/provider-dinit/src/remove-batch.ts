import type { ApplyContext, ResourceChange, Service } from "@tend/core/contract";
import { isBootLinked, removeBootLink } from "./boot-link.js";
import { dinitctlFor, type Dinitctl } from "./dinitctl.js";
import { eachOf } from "./each-of.js";
import { endProcessGroups, type GroupOwner } from "./end-process-groups.js";
import { listServices, type ListResult } from "./list-services.js";
import { dependentsOfRemoved, releaseDependents, type HeldBy } from "./release-dependents.js";
import { runDinitctl, UNLOADABLE } from "./run-dinitctl.js";
import { dinitName } from "./service-paths.js";

type ServiceChange = ResourceChange & { resource: Service };

const NOT_ENABLED = new RegExp(`not currently enabled|${UNLOADABLE}`);
const UNLOAD_BENIGN = new RegExp(`service not loaded|is a dependency of another service|${UNLOADABLE}`);

/**
 * A wave of removals, before the core deletes the descriptions: a tend service is stopped (dinit
 * signals its whole process group, and the group is watched until empty: see
 * end-process-groups.ts), disabled and unloaded, so dinit forgets it; a distro service is only
 * disabled, its files left alone. The tend services that depend on it let go of it first and run
 * on (see releaseDependents): the spec no longer declares those dependencies, and apply writes,
 * reloads and restarts them next. `stop --force` stops whatever else still depends on it, as
 * systemd does.
 *
 * One `dinitctl list` for the wave tells which services dinit holds loaded: one it has not loaded
 * is running nowhere and held by no boot service, so only its boot link goes, without a command.
 * The rest is one dinitctl call per service and step (dinitctl takes one service a call): `stop`
 * unless dinit lists it stopped, `disable` when it is linked at boot (else only if `unload` finds
 * a boot service still holding it), and `unload`. Offline (`--root`) only the boot link goes.
 */
export async function removeBatch(changes: ResourceChange[], ctx: ApplyContext): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  const services = changes.filter((change): change is ServiceChange => change.resource.type === "service");
  if (ctx.offline) {
    await eachOf(services, failures, (change) => removeBootLink(dinitName(change.resource), ctx));
    return failures;
  }
  if (services.length === 0) return failures;
  const dinitctl = await dinitctlFor(ctx.scope, ctx.files);
  const listed = await listServices(ctx);
  const groups = new Map<number, GroupOwner>();
  // Only a tend service dinit holds loaded can be held by another.
  const ours = services.filter((change) => change.resource.exec !== undefined).map((change) => dinitName(change.resource));
  const loaded = ours.filter((name) => listed.ok && listed.services.has(name));
  const held = await dependentsOfRemoved(new Set(loaded), listed, ctx);
  await eachOf(services, failures, (change) => removeOne(change, listed, held, dinitctl, groups, ctx));
  await endProcessGroups(groups, ctx, failures);
  return failures;
}

/** One removal: {@link removeBatch} of one. */
export async function removeService(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const failure = (await removeBatch([change], ctx)).get(change.key);
  if (failure !== undefined) throw failure;
}

async function removeOne(change: ServiceChange, listed: ListResult, held: Map<string, HeldBy[]>, dinitctl: Dinitctl, groups: Map<number, GroupOwner>, ctx: ApplyContext): Promise<void> {
  const name = dinitName(change.resource);
  const entry = listed.ok ? listed.services.get(name) : undefined;
  if (listed.ok && entry === undefined) {
    await removeBootLink(name, ctx);
    return;
  }
  const ours = change.resource.exec !== undefined;
  if (ours) await releaseDependents(held.get(name) ?? [], dinitctl, ctx);
  const stopped = entry !== undefined && entry.state === "stopped" && entry.target !== "started";
  if (ours && !stopped) {
    await runDinitctl(ctx, dinitctl, ["stop", "--force", name], { benign: new RegExp(UNLOADABLE) });
    if (entry?.pid !== undefined) groups.set(entry.pid, { name, key: change.key });
  }
  const linked = await isBootLinked(name, ctx);
  // dinitctl disable gives up before unlinking when dinit cannot load the service: the link must not outlive it.
  const disable = async () => {
    await runDinitctl(ctx, dinitctl, ["disable", name], { benign: NOT_ENABLED });
    await removeBootLink(name, ctx);
  };
  if (linked || !ours) await disable();
  if (!ours) return;
  let unload = await runDinitctl(ctx, dinitctl, ["unload", name], { benign: UNLOAD_BENIGN });
  if (!linked && heldByAnother(unload)) {
    // Not linked at boot, yet held: enabled in dinit after its link was removed by hand.
    await disable();
    unload = await runDinitctl(ctx, dinitctl, ["unload", name], { benign: UNLOAD_BENIGN });
  }
  if (heldByAnother(unload)) ctx.log(`${name}: left loaded (stopped) in dinit until the services that depend on it are reloaded`);
}

function heldByAnother(unload: { benign: boolean; stderr: string }): boolean {
  return unload.benign && /dependency of another service/.test(unload.stderr);
}
