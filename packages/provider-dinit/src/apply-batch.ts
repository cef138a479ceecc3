import { posix } from "node:path";
import { errors, type ApplyContext, type Operation, type ResourceChange, type Service } from "@tend/core/contract";
import { addBootLink, removeBootLink } from "./boot-link.js";
import { dinitctlFor, type Dinitctl } from "./dinitctl.js";
import { eachOf } from "./each-of.js";
import { endProcessGroups, type GroupOwner } from "./end-process-groups.js";
import { findDescription } from "./find-description.js";
import { listServices, type ListResult } from "./list-services.js";
import type { ListedService } from "./parse-dinit-list.js";
import { resolveEnableLink } from "./resolve-enable-link.js";
import { runDinitctl, START_TIMEOUT_MS } from "./run-dinitctl.js";
import { descriptionDir, descriptionName, dinitName, logFile } from "./service-paths.js";
import { signalArgument } from "./signal-argument.js";

type ServiceChange = ResourceChange & { resource: Service };

/** The order a service's operations run in, as the planner orders them. */
const ORDER: Operation[] = ["stop", "disable", "enable", "start", "restart", "reload"];

/** One service of a wave, and what carrying out its operations has found so far. */
interface Step {
  key: string;
  change: ServiceChange;
  name: string;
  /** Its line in the wave's `dinitctl list`; undefined when dinit has not loaded it (or could not be asked). */
  listed?: ListedService;
  /** Whether dinit holds it loaded; true when the list could not be had, which is the safe guess. */
  loaded: boolean;
  /** Stopped so that dinit would take its new description: its restart starts it. */
  stoppedToReload: boolean;
  /** `dinitctl enable` started it already. */
  startedByEnable: boolean;
}

/**
 * Carries out a wave of adds and changes, an operation at a time across the wave, as the seed
 * says: `dinitctl enable` (which also starts) for a new service; for a changed description
 * `reload` (dinit caches descriptions and keeps running the old command until told to re-read
 * it), then `restart`. dinit's `reload` only re-reads the file; the `reload` operation
 * (reloadOn) sends `reloadSignal` with `dinitctl signal`.
 *
 * dinitctl takes one service a call (`dinitctl start a b` is "Invalid command line"), and its
 * control protocol one service a request, so what remains per service is the command that acts
 * on it: `enable` or `start`, `stop`, `restart`, `signal`, and `reload` of a description dinit
 * has loaded. What the wave shares is asked once: one `dinitctl list` tells which services dinit
 * has loaded (a description it never loaded needs no `reload`: `enable` and `start` load it from
 * the file), which are already explicitly started (a disable then needs no `start` to keep them
 * running), which boot services are up (then `enable` starts a service and no `start` follows),
 * and each running service's process group, which is watched until empty after a stop or restart
 * (see end-process-groups.ts). A failure is pinned on its own service and ends only its part.
 * Offline (`--root`) it only links services into their boot service's `waits-for.d`.
 */
export async function applyBatch(changes: ResourceChange[], ctx: ApplyContext): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  const ready: ServiceChange[] = [];
  for (const change of changes) {
    if (change.resource.type !== "service") continue;
    try {
      await prepare(change as ServiceChange, ctx);
      ready.push(change as ServiceChange);
    } catch (error) {
      failures.set(change.key, error);
    }
  }
  if (ctx.offline) {
    await eachOf(ready, failures, async (change) => {
      const name = dinitName(change.resource);
      if (change.ops.includes("disable")) await removeBootLink(name, ctx);
      if (change.ops.includes("enable")) await addBootLink(change.key, name, ctx);
    });
    return failures;
  }
  if (ready.length === 0) return failures;
  const dinitctl = await dinitctlFor(ctx.scope, ctx.files);
  const listed = await listServices(ctx);
  const steps = ready.map((change) => stepOf(change, listed));
  const groups = new Map<number, GroupOwner>();
  const run = (targets: Step[], act: (step: Step) => Promise<void>) => eachOf(targets, failures, act);

  // Also for an add: dinit may still hold an older description of the same name (a file adopted
  // with --adopt, or one left loaded by an earlier removal), which enable would otherwise use.
  await run(
    steps.filter((s) => s.change.resource.exec !== undefined && s.change.filesChanged && s.loaded),
    (step) => reloadDescription(step, dinitctl, groups, ctx),
  );
  for (const op of ORDER) {
    await run(
      steps.filter((s) => s.change.ops.includes(op)),
      (step) => carryOut(op, step, listed, dinitctl, groups, ctx),
    );
  }
  await endProcessGroups(groups, ctx, failures);
  return failures;
}

/** One add or change: {@link applyBatch} of one. */
export async function applyChange(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const failure = (await applyBatch([change], ctx)).get(change.key);
  if (failure !== undefined) throw failure;
}

/** What must hold before dinit is asked anything: the distro's description exists; a user service's log folder does. */
async function prepare(change: ServiceChange, ctx: ApplyContext): Promise<void> {
  const service = change.resource;
  const name = dinitName(service);
  if (service.exec === undefined && !(await findDescription(descriptionName(name), ctx.scope, ctx.files))) {
    throw errors.distroUnitMissing(change.key, `${descriptionDir(ctx.scope)}/${descriptionName(name)}`);
  }
  // dinit will not start a service whose log folder is missing; /var/log always exists.
  if (service.exec !== undefined && ctx.scope.kind === "user") await ctx.files.mkdir(posix.dirname(logFile(service, ctx.scope)));
}

function stepOf(change: ServiceChange, listed: ListResult): Step {
  const name = dinitName(change.resource);
  const entry = listed.ok ? listed.services.get(name) : undefined;
  return { key: change.key, change, name, ...(entry ? { listed: entry } : {}), loaded: !listed.ok || entry !== undefined, stoppedToReload: false, startedByEnable: false };
}

async function carryOut(op: Operation, step: Step, listed: ListResult, dinitctl: Dinitctl, groups: Map<number, GroupOwner>, ctx: ApplyContext): Promise<void> {
  const { change, name } = step;
  const service = change.resource;
  switch (op) {
    case "stop":
      await runDinitctl(ctx, dinitctl, ["stop", name]);
      noteGroup(step, groups);
      break;
    case "disable":
      await disable(step, dinitctl, ctx);
      break;
    case "enable":
      // `dinitctl enable` also starts what it enables: a service declared enabled but stopped is only linked.
      if (service.desired?.state === "stopped") {
        await addBootLink(change.key, name, ctx);
        break;
      }
      step.startedByEnable =
        !(await runDinitctl(ctx, dinitctl, ["enable", name], { benign: /service already enabled/, timeoutMs: START_TIMEOUT_MS })).benign &&
        (await enablesFromStarted(name, listed, ctx));
      break;
    case "start":
      if (!step.startedByEnable) await runDinitctl(ctx, dinitctl, ["start", name], { timeoutMs: START_TIMEOUT_MS });
      break;
    case "restart":
      await restart(step, dinitctl, groups, ctx);
      break;
    case "reload":
      if (!service.reloadSignal) throw errors.cannotReload(change.key, "dinit");
      await runDinitctl(ctx, dinitctl, ["signal", signalArgument(service.reloadSignal), name]);
      break;
  }
}

/**
 * `dinitctl reload`. A running service refuses some changes (`could not reload service; service
 * in wrong state, incompatible change…`, e.g. a new dependency that is not started): then it is
 * stopped, reloaded and left for the following restart to start.
 */
async function reloadDescription(step: Step, dinitctl: Dinitctl, groups: Map<number, GroupOwner>, ctx: ApplyContext): Promise<void> {
  const reload = await runDinitctl(ctx, dinitctl, ["reload", step.name], { benign: /could not reload service/ });
  if (!reload.benign) return;
  ctx.log(`${step.name}: dinit refused to reload it while running; stopping it to reload`);
  await runDinitctl(ctx, dinitctl, ["stop", step.name]);
  noteGroup(step, groups);
  await runDinitctl(ctx, dinitctl, ["reload", step.name]);
  step.stoppedToReload = true;
}

/**
 * A service running only because boot waits for it stops when disabled; one that must keep
 * running, and was not started explicitly, is started explicitly first. A service dinit has not
 * loaded is held by nothing in it: only its link goes.
 */
async function disable(step: Step, dinitctl: Dinitctl, ctx: ApplyContext): Promise<void> {
  if (step.loaded) {
    if (wantsRunning(step.change.resource) && !step.listed?.explicit) {
      await runDinitctl(ctx, dinitctl, ["start", step.name], { timeoutMs: START_TIMEOUT_MS });
    }
    await runDinitctl(ctx, dinitctl, ["disable", step.name], { benign: /not currently enabled/ });
  }
  await removeBootLink(step.name, ctx);
}

/**
 * `dinitctl restart --force`: without `--force` dinit refuses to restart a service others depend
 * on; with it, those dependents are restarted too, as systemd does for `Requires=`. A stopped
 * service (`service not started`) is started instead.
 */
async function restart(step: Step, dinitctl: Dinitctl, groups: Map<number, GroupOwner>, ctx: ApplyContext): Promise<void> {
  const stopped = step.stoppedToReload || (step.listed !== undefined && step.listed.state === "stopped" && step.listed.target !== "started");
  if (!stopped) {
    const result = await runDinitctl(ctx, dinitctl, ["restart", "--force", step.name], { benign: /service not started/, timeoutMs: START_TIMEOUT_MS });
    noteGroup(step, groups);
    if (!result.benign) return;
  }
  await runDinitctl(ctx, dinitctl, ["start", step.name], { timeoutMs: START_TIMEOUT_MS });
}

/** Whether `dinitctl enable` starts the service: it does when the service it is enabled from (`boot`) is started. */
async function enablesFromStarted(name: string, listed: ListResult, ctx: ApplyContext): Promise<boolean> {
  if (!listed.ok) return false;
  const link = await resolveEnableLink(name, ctx.scope, ctx.files);
  return listed.services.get(link.via)?.state === "started";
}

/** The process group of a service about to stop: the pid dinit listed, the leader of the session it started. */
function noteGroup(step: Step, groups: Map<number, GroupOwner>): void {
  if (step.listed?.pid !== undefined) groups.set(step.listed.pid, { name: step.name, key: step.key });
}

/** The core's rule: `desired.state` when given, else running for a service tend writes. */
function wantsRunning(service: Service): boolean {
  return service.desired ? service.desired.state === "running" : service.exec !== undefined;
}
