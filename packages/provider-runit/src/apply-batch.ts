import { errors, TendError, type ApplyContext, type Operation, type ResourceChange, type Service } from "@tend/core/contract";
import { linksTo } from "./links-to.js";
import { earlyRunsvs, restartRunsvs } from "./early-runsv.js";
import type { SvStatus } from "./parse-sv-status.js";
import { rendersDownFile } from "./down-file.js";
import { serviceLayout, type ServiceLayout } from "./service-layout.js";
import { restartServices } from "./restart-services.js";
import { failedUnlessRunsvGone, svBatch, type SvTarget } from "./sv-batch.js";
import { svSignalCommand } from "./sv-signal-command.js";
import { holdsDownNow, holdsTransientDown } from "./transient-down.js";
import { ensureUserRunsvdir, scopeRunsvdir } from "./user-runsvdir.js";
import { PICKUP_SECONDS, waitForPickup } from "./wait-for-pickup.js";

const RUNTIME_OPS: Operation[] = ["start", "stop", "restart", "reload"];

/** One service of the wave. */
interface Item {
  change: ResourceChange;
  service: Service;
  layout: ServiceLayout;
  /** Its directory holds a transient `down` (transient-down.ts): runsv must see it before it goes. */
  held: boolean;
}

/**
 * Carries out a wave of adds and changes, after the core wrote every artifact (links included):
 * one wait until runsv supervises all of the wave's directories (runsvdir picks links up within
 * five seconds, so an add runs no command of its own), then one `sv` command per operation for
 * all the services that need it (`sv up a b c`), in the planner's order: stop, enable and
 * disable (files), start, restart, reload. Each failure is pinned on its service (see
 * {@link svBatch}); the others go on. Under `--root` only file work happens.
 */
export async function applyBatch(changes: ResourceChange[], ctx: ApplyContext): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  const services = changes.flatMap((change) => (change.resource.type === "service" ? [{ change, service: change.resource, layout: serviceLayout(change.resource, ctx) }] : []));
  const items: Item[] = await Promise.all(services.map(async (item) => ({ ...item, held: !ctx.offline && !item.layout.distro && (await holdsDownNow(item.layout.dir, ctx)) })));
  const live = () => items.filter((item) => !failures.has(item.change.key));
  const record = (found: Map<string, unknown>) => found.forEach((error, key) => failures.set(key, error));
  const targets = (list: Item[]): SvTarget[] => list.map((item) => ({ key: item.change.key, dir: item.layout.dir }));

  for (const item of items) {
    if (item.change.ops.includes("reload") && reloadCommand(item.service) === undefined) failures.set(item.change.key, errors.cannotReload(item.change.key, "runit"));
  }
  const users = live().filter((item) => item.layout.user);
  if (users.length > 0) {
    await ensureUserRunsvdir(scopeRunsvdir(ctx), ctx).catch((error: unknown) => users.forEach((item) => failures.set(item.change.key, error)));
  }
  // What sv status said once runsv supervised each: a restart is done when a pid other than this one runs.
  const supervised = ctx.offline ? new Map<string, SvStatus>() : await awaitRunsv(live().filter(needsRunsv), ctx, failures);

  // `sv stop` waits (up to 7 s) until each is down, ./finish included: a stop is done when apply goes on.
  if (!ctx.offline) {
    const stopping = live().filter(bringsDown);
    record(await svBatch(ctx, ["stop"], targets(stopping.filter((item) => !unlinked(item)))));
    record(await svBatch(ctx, ["stop"], targets(stopping.filter(unlinked)), { failed: failedUnlessRunsvGone }));
  }
  for (const item of live()) {
    try {
      await fileWork(item, ctx);
    } catch (error) {
      failures.set(item.change.key, error);
    }
  }
  if (ctx.offline) return failures;

  // A changed service the plan saw stopped that runs now: its runsv came after the plan looked
  // (an apply killed just after linking it), maybe before this one wrote `run`: restarted, so
  // that the program is the one written.
  const starting = live().filter((item) => item.change.ops.includes("start"));
  const raced = starting.filter((item) => item.change.action === "change" && item.change.filesChanged && supervised.get(item.layout.dir)?.service?.state === "run");
  record(await svBatch(ctx, ["up"], targets(starting.filter((item) => !raced.includes(item)))));
  const restarting = [...live().filter((item) => item.change.ops.includes("restart")), ...raced.filter((item) => !failures.has(item.change.key))];
  // `sv restart` sends TERM and asks for up, but the process's end runs `./finish` first, and the
  // finish of restart = "no" (and of "on_failure" for a program that exits 0 on TERM) would turn
  // the restart into a stop (verified: `sv restart` left both down). Those are stopped and waited
  // for (`sv stop`, at most 7 s), then started again.
  const plain = restarting.filter((item) => item.layout.distro || item.service.restart === "always");
  record(await restartServices(ctx, targets(plain), supervised));
  const finishing = restarting.filter((item) => !plain.includes(item));
  record(await svBatch(ctx, ["stop"], targets(finishing)));
  record(await svBatch(ctx, ["up"], targets(finishing.filter((item) => !failures.has(item.change.key)))));

  const reloading = live().filter((item) => item.change.ops.includes("reload"));
  for (const command of new Set(reloading.map((item) => reloadCommand(item.service)!))) {
    record(await svBatch(ctx, [command], targets(reloading.filter((item) => reloadCommand(item.service) === command))));
  }
  return failures;
}

/** {@link applyBatch} for one change, throwing its failure. */
export async function applyChange(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const failure = (await applyBatch([change], ctx)).get(change.key);
  if (failure !== undefined) throw failure;
}

function reloadCommand(service: Service): string | undefined {
  return service.reloadSignal === undefined ? undefined : svSignalCommand(service.reloadSignal);
}

/**
 * To be stopped, and linked by this apply, so that runsvdir would start it: a tend service added
 * (its `down` file says whether it boots); a distro service added or enabled, unless disabled (it
 * is then not linked). A distro service has no `down` file of tend's, so its runsv starts it.
 */
function linkedStopped(item: Item): boolean {
  const desired = item.service.desired;
  if (desired?.state !== "stopped") return false;
  if (!item.layout.distro) return item.change.action === "add";
  return desired.enabled !== false && (item.change.action === "add" || item.change.ops.includes("enable"));
}

/**
 * A distro service being disabled: the core has already removed its link, so runsvdir, at its
 * next scan, stops the service and ends its runsv (runsv exits once the service is down). A stop
 * then finds a runsv, or none because that stop is done; nothing waits for one.
 */
function unlinked(item: Item): boolean {
  return item.layout.distro && item.change.ops.includes("disable");
}

/**
 * Whether the operations after the writes need a runsv on the directory: a tend service that is
 * added, and any service with an sv command to come, except one whose link is gone ({@link unlinked}).
 */
function needsRunsv(item: Item): boolean {
  if (unlinked(item)) return false;
  const runtime = item.change.ops.some((op) => RUNTIME_OPS.includes(op));
  return item.held || linkedStopped(item) || ((runtime || item.change.action === "add") && (!item.layout.distro || runtime));
}

/**
 * A service to `sv stop`: told to stop, or linked stopped ({@link linkedStopped}) — unless a
 * transient `down` file kept runsv from starting it at all; or changed and held, in case its
 * runsv started (an older `run`) before the hold was written: its start, if it is wanted
 * running, comes after.
 */
function bringsDown(item: Item): boolean {
  if (item.change.ops.includes("stop")) return true;
  if (linkedStopped(item)) return !holdsTransientDown(item.change, { offline: false });
  return item.held && item.change.action === "change";
}

/**
 * One wait for all the wave's directories; then, for the added tend services whose runsv started
 * before tend had finished the directory, one `sv exit` and a wait for the fresh runsv.
 */
async function awaitRunsv(items: Item[], ctx: ApplyContext, failures: Map<string, unknown>): Promise<Map<string, SvStatus>> {
  if (items.length === 0) return new Map();
  const first = await waitForPickup(items.map((item) => item.layout.dir), ctx);
  const added: Item[] = [];
  for (const item of items) {
    if (!first.statuses.has(item.layout.dir)) failures.set(item.change.key, notSupervised(item, ctx));
    else if (item.change.action === "add" && !item.layout.distro) added.push(item);
  }
  const target = (item: Item) => ({ key: item.change.key, dir: item.layout.dir });
  const early = await earlyRunsvs(added.map(target), first.statuses, ctx);
  if (early.length === 0) return first.statuses;
  for (const { dir } of early) ctx.log(`runit: runsv started ${dir} before tend had written it; restarting that runsv`);
  const again = await restartRunsvs(early, first.statuses, ctx);
  again.failures.forEach((error, key) => failures.set(key, error));
  for (const item of items) if (again.missing.includes(item.layout.dir)) failures.set(item.change.key, notSupervised(item, ctx));
  return new Map([...first.statuses, ...again.statuses]);
}

function notSupervised(item: Item, ctx: ApplyContext): TendError {
  return new TendError("TEND_RUNIT_NOT_SUPERVISED", `runsv did not pick up ${item.layout.dir} within ${PICKUP_SECONDS} s`, { hint: pickupHint(item.layout, ctx) });
}

/** What to check when runsv does not show up. */
function pickupHint(layout: ServiceLayout, ctx: ApplyContext): string {
  if (!layout.user) return "Is runsvdir running over /etc/runit/runsvdir/default (runit as init, or its runit service)? Check `sv status /etc/service/*`";
  const runsvdir = scopeRunsvdir(ctx);
  return `The user's services run under ${runsvdir.dir}; check \`sv status ${runsvdir.dir}\``;
}

/** The file side of a change: a transient `down` file goes once runsv has seen it; enable and disable are files on runit. */
async function fileWork(item: Item, ctx: ApplyContext): Promise<void> {
  const { change, service, layout } = item;
  if (item.held) await ctx.files.remove(`${layout.dir}/down`);
  if (change.ops.includes("enable") && !layout.distro && !rendersDownFile(service) && (await ctx.files.exists(`${layout.dir}/down`))) {
    // The link is an artifact; a `down` file tend did not write would still keep it from booting.
    await ctx.files.remove(`${layout.dir}/down`);
    ctx.log(`${change.key}: removed ${layout.dir}/down, which kept it from starting at boot`);
  }
  // A tend service is disabled by its `down` artifact; a distro service by unlinking it.
  if (change.ops.includes("disable") && layout.distro && (await linksTo(ctx.files, layout.link, layout.dir))) await ctx.files.remove(layout.link);
}
