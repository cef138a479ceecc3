import type { ApplyContext, Operation, ResourceChange, Service } from "@tend/core/contract";
import { liveSupervision } from "./live-supervision.js";
import { rcService, serviceAction } from "./rc-commands.js";
import { readRunlevels } from "./read-runlevels.js";
import { addToDefaultRunlevel, removeFromRunlevels } from "./runlevel-links.js";
import { BOOT_RUNLEVELS, scriptName } from "./script-name.js";
import { resetStarted, startedWithoutProcess } from "./started-without-process.js";
import { stopKeptBy } from "./stop-kept-by.js";
import { supervisionOf, type Supervision } from "./supervision.js";

type ServiceChange = ResourceChange & { resource: Service };

/** The operations that start or stop a process. */
const RUNTIME_OPS = new Set<Operation>(["start", "stop", "restart", "reload"]);

/** The order a service's operations run in, as the planner orders them. */
const ORDER: Operation[] = ["stop", "disable", "enable", "start", "restart", "reload"];

/**
 * Carries out a wave of adds and changes, an operation at a time across the wave. Enabling and
 * disabling are runlevel links tend makes itself (see runlevel-links.ts): no command at all.
 * Starting, stopping, restarting and reloading cannot be batched on OpenRC: `rc-service` and
 * `openrc-run` take one service a call (the `openrc` command only changes whole runlevels, which
 * would also start and stop services tend does not manage), so those are one command per
 * service, one at a time: OpenRC 0.45 races when supervise-daemon services of one wave are
 * restarted side by side (seen: "already running" from a start right after its own stop, and a
 * lost child_pid). Each failure is pinned on its own service. Under `--root` only the links change.
 * A tend service the spec wants stopped, with nothing to start or stop, whose record OpenRC still
 * keeps as started with nothing it started running (the drift observeServices reports) has that
 * record reset: `rc-service start` would otherwise say it is already started.
 */
export async function applyBatch(changes: ResourceChange[], ctx: ApplyContext): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  const services = changes.filter((change): change is ServiceChange => change.resource.type === "service");
  const runlevels = services.some((change) => change.ops.includes("disable")) ? await readRunlevels(ctx.files) : new Map<string, Set<string>>();
  for (const op of ORDER) {
    if (ctx.offline && op !== "enable" && op !== "disable") continue;
    for (const change of services) {
      if (failures.has(change.key) || !change.ops.includes(op)) continue;
      const script = scriptName(change.resource);
      try {
        if (op === "enable") await addToDefaultRunlevel(script, ctx);
        else if (op === "disable") await removeFromRunlevels(script, runlevels, ctx, BOOT_RUNLEVELS);
        else if (op === "start") await start(change, ctx);
        else if (op === "restart") await restart(change, ctx);
        else if (op === "stop") await stop(change, ctx);
        else await ctx.run.run({ argv: serviceAction(change.resource, op) });
      } catch (error) {
        failures.set(change.key, error);
      }
    }
  }
  for (const change of services) {
    if (ctx.offline || failures.has(change.key) || change.resource.desired?.state !== "stopped" || change.ops.some((op) => RUNTIME_OPS.has(op))) continue;
    try {
      if (await stoppedWithoutItsStop(change, ctx)) ctx.log(`${change.key}: reset OpenRC's record of it as started, as nothing it started runs`);
    } catch (error) {
      failures.set(change.key, error);
    }
  }
  return failures;
}

/** One add or change: {@link applyBatch} of one. */
export async function applyChange(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const failure = (await applyBatch([change], ctx)).get(change.key);
  if (failure !== undefined) throw failure;
}

/**
 * A new service gets `start`. One that exists is only given a start when it was seen not
 * running, and then a restart (see {@link restart}): OpenRC's `start` does nothing for a service
 * it still counts as started whose process died (`crashed`, or any dead background daemon on
 * Debian), while `restart` stops what is left and starts a stopped service just the same.
 */
async function start(change: ServiceChange, ctx: ApplyContext): Promise<void> {
  if (change.action === "add") await ctx.run.run({ argv: serviceAction(change.resource, "start") });
  else await restart(change, ctx);
}

/**
 * Whether OpenRC counts this tend service started while no process it recorded lives (see
 * noLiveProcess): its own stop would fail, so what is left of it is ended and its record reset
 * instead (see resetStarted), and true is returned: it is stopped.
 */
async function stoppedWithoutItsStop(change: ServiceChange, ctx: ApplyContext): Promise<boolean> {
  const script = scriptName(change.resource);
  if (change.resource.exec === undefined || !(await startedWithoutProcess(ctx.files, script))) return false;
  await resetStarted(script, ctx);
  return true;
}

/** A stop: the old way when the process is kept another way than the script on disk says. */
async function stop(change: ServiceChange, ctx: ApplyContext): Promise<void> {
  if (await stoppedWithoutItsStop(change, ctx)) return;
  if ((await stopUnderOldSupervision(change, ctx)) !== undefined) return;
  await ctx.run.run({ argv: serviceAction(change.resource, "stop") });
}

/**
 * A restart: the old process stopped the old way, then the new script started, when the
 * supervision changed; a service with nothing left to stop only started.
 */
async function restart(change: ServiceChange, ctx: ApplyContext): Promise<void> {
  if (await stoppedWithoutItsStop(change, ctx)) {
    await ctx.run.run({ argv: rcService(scriptName(change.resource), "start") });
    return;
  }
  const before = await stopUnderOldSupervision(change, ctx);
  if (before === undefined) {
    await ctx.run.run({ argv: serviceAction(change.resource, "restart") });
    return;
  }
  await ctx.run.run({ argv: rcService(scriptName(change.resource), "start") });
  ctx.log(`${change.key}: stopped the process ${before} kept, then started it under ${supervisionOf(change.resource)}`);
}

/**
 * openrc-run stops a service the way its current script says, and the script on disk is already
 * the new one: after a change between supervise-daemon and a background daemon its stop would
 * miss the old process (a `stop` fails, a `restart` starts a second one). Then the old process is
 * stopped the old way (see stopKeptBy). The old way is what the host's records show keeps the
 * process now (see liveSupervision), which after an apply killed between writing the script and
 * restarting is not what the change's previous definition says (the journal already holds the
 * new one); with no live process, the previous definition's. The old supervision when it
 * differed; undefined, doing nothing, when it is the script's.
 */
async function stopUnderOldSupervision(change: ServiceChange, ctx: ApplyContext): Promise<Supervision | undefined> {
  const service = change.resource;
  if (service.exec === undefined) return undefined;
  const script = scriptName(service);
  const previous = change.previous;
  const before = (await liveSupervision(ctx.files, script)) ?? (previous?.type === "service" && previous.exec !== undefined ? supervisionOf(previous) : undefined);
  if (before === undefined || before === supervisionOf(service)) return undefined;
  await stopKeptBy(before, script, ctx);
  return before;
}
