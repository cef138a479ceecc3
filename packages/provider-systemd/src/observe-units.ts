import { errors, type Observation, type ReadContext, type Resource, type Service, type Timer } from "@tend/core/contract";
import { GRAPHICAL_TARGET, readDefaultTarget } from "./default-target.js";
import { enabledFromUnitFileState } from "./enabled-from-state.js";
import { hatchDirectives } from "./merge-escape-hatch.js";
import { parseListUnitFiles, type UnitFile } from "./parse-list-unit-files.js";
import { listLoadedUnits } from "./list-loaded-units.js";
import type { LoadedUnit } from "./parse-list-units.js";
import { parseShowOutput } from "./parse-show-output.js";
import { readUnitFileStates } from "./read-unit-file-states.js";
import { systemctl } from "./systemctl-command.js";
import { isDistroUnit, isInstance, ownedUnits, primaryUnit, templateOf } from "./unit-name.js";
import { findForeignUnitFiles } from "./find-foreign-unit-files.js";
import { observeUserUnitOffline } from "./observe-user-unit-offline.js";
import { predictBoot, readLinger } from "./predict-boot.js";
import { mainPidsFromCgroups, TEND_SERVICES } from "./main-pids-from-cgroups.js";
import { UNITS_PER_COMMAND } from "./units-per-command.js";

interface Target {
  key: string;
  resource: Service | Timer;
  unit: string;
}

/** What the host says about a set of units, from as few processes as answer the plan. */
interface UnitReadings {
  files: Map<string, UnitFile>;
  /** Undefined offline: no manager runs, nothing is active. */
  loaded: Map<string, LoadedUnit> | undefined;
  shown: Map<string, Record<string, string>>;
}

/**
 * Observes every resource at once. A plan needs, per unit: whether it exists, whether it is
 * active, its unit file state, and for a distro unit listed with `reloadOn` whether it can
 * reload. Two list calls answer the first three for any number of units (a few ms for 200,
 * against ~140 ms for one batched `show`): `list-unit-files` (every unit with a file, enabled
 * or not) and `list-units --all` (every loaded unit, active or not), both by pattern, so the
 * argv stays short for thousands of services. `show` runs only for distro units the lists
 * cannot answer for (see needsShow). `get-default` runs only when a display manager is declared.
 * NeedDaemonReload is not asked here: it matters only to units about to be (re)started, and
 * afterWrites asks for those. In an image root and on the host tend runs on, tend's own system
 * units' states are read from the tree instead (readUnitFileStates): systemd's answer costs N²
 * there, and on the host tend runs on a process of its own.
 */
export async function observeUnits(resources: Resource[], ctx: ReadContext): Promise<Map<string, Observation>> {
  const targets: Target[] = [];
  for (const resource of resources) {
    if (resource.type === "file" || resource.type === "package") continue;
    targets.push({ key: `${resource.type}:${resource.name}`, resource, unit: primaryUnit(resource) });
  }
  const observations = new Map<string, Observation>();
  if (targets.length === 0) return observations;
  if (ctx.scope.kind === "user" && ctx.root) {
    for (const target of targets) observations.set(target.key, await observeUserUnitOffline(target.unit, ctx));
    return observations;
  }
  // Checking an apply's result needs no main pids: they cost a `show` of every running service.
  const mainPids = !ctx.root && ctx.purpose !== "check";
  // The control groups are read while the units are listed (a process of its own either way);
  // only the services the lists say run their main process take a pid from them.
  const fromGroups = mainPids ? mainPidsFromCgroups(upgradable(targets), ctx) : undefined;
  const readings = await readUnits(targets, ctx);
  const displayManager = targets.some((t) => t.resource.type === "service" && t.resource.displayManager);
  const defaultTarget = displayManager ? await readDefaultTarget(ctx) : undefined;
  const foreignFiles = await findForeignUnitFiles(targets.flatMap((t) => ownedUnits(t.resource)), ctx);
  const linger = await readLinger(ctx);
  for (const target of targets) {
    const observation = toObservation(target, readings);
    const atBoot = target.resource.type === "service" && observation.exists ? predictBoot(observation.unitFileState, ctx.scope, linger) : undefined;
    if (atBoot) observation.atBoot = atBoot;
    const foreign = ownedUnits(target.resource).flatMap((unit) => foreignFiles.get(unit) ?? []);
    if (foreign.length > 0) observation.warnings = foreign;
    if (target.resource.type === "service" && target.resource.displayManager && defaultTarget !== GRAPHICAL_TARGET) {
      observation.drift = [`the host boots to ${defaultTarget ?? "no default target"}, not ${GRAPHICAL_TARGET}`];
    }
    observations.set(target.key, observation);
  }
  if (fromGroups) await readMainPids(targets, observations, await fromGroups, ctx);
  return observations;
}

/**
 * The units of services that may be restarted for a replaced build (see `restartOnUpgrade`):
 * tend's own as TEND_SERVICES (the shell finds their groups: the argv stays short, and a service
 * not started yet costs nothing), the distro's by name.
 */
function upgradable(targets: Target[]): string[] {
  const services = targets.filter((t) => t.resource.type === "service" && t.resource.restartOnUpgrade !== false);
  const distro = services.filter((t) => isDistroUnit(t.resource)).map((t) => t.unit);
  return [...new Set([...(services.length > distro.length ? [TEND_SERVICES] : []), ...distro])];
}

/**
 * The main pid of every running service that may be restarted for a replaced build (see
 * `restartOnUpgrade`); core reads /proc through it. A service whose process runs (`running`)
 * gets it from its control group when that is plain (`groups`, see mainPidsFromCgroups); the
 * rest from one `systemctl show`, asked only when there are such.
 */
async function readMainPids(targets: Target[], observations: Map<string, Observation>, groups: Map<string, number>, ctx: ReadContext): Promise<void> {
  const running = targets.filter((t) => t.resource.type === "service" && t.resource.restartOnUpgrade !== false && observations.get(t.key)?.state === "running");
  if (running.length === 0) return;
  const units = [...new Set(running.map((t) => t.unit))];
  const pids = new Map<string, number>();
  for (const target of running) {
    const pid = groups.get(target.unit);
    if (pid !== undefined && observations.get(target.key)?.details?.sub === "running") pids.set(target.unit, pid);
  }
  const asked = units.filter((unit) => !pids.has(unit));
  if (asked.length > 0) {
    const result = await ctx.run.run(systemctl(ctx, ["show", "-p", "Id,MainPID", "--", ...asked]));
    const shown = parseShowOutput(result.stdout, asked);
    for (const unit of asked) {
      const pid = Number(shown.get(unit)?.MainPID ?? 0);
      if (Number.isInteger(pid) && pid > 0) pids.set(unit, pid);
    }
  }
  for (const target of running) {
    const pid = pids.get(target.unit);
    if (pid !== undefined) observations.get(target.key)!.mainPid = pid;
  }
}

async function readUnits(targets: Target[], ctx: ReadContext): Promise<UnitReadings> {
  const distroUnits = [...new Set(targets.filter((t) => isDistroUnit(t.resource)).map((t) => t.unit))];
  const patterns = ["tend-*", ...distroUnits];
  // tend's own system units are read from the tree (see readUnitFileStates) in an image root and
  // on the host tend runs on; only what that leaves, and the distro's units, are systemctl's.
  const treeHere = !ctx.root && ctx.files.local === true && ctx.scope.kind === "system";
  // There list-units runs while the tree is read.
  const early = treeHere ? listLoadedUnits(patterns, ctx) : undefined;
  early?.catch(() => undefined);
  const fromTree = ctx.root || treeHere ? await readUnitFileStates(ctx.files) : undefined;
  // Offline no manager answers for an instance: its template's file says whether it exists.
  const templates = ctx.root ? distroUnits.flatMap((unit) => templateOf(unit) ?? []) : [];
  // Past a few hundred names left over, the pattern keeps the argv short (and costs what it did).
  // Checking an apply's result names the units it acted on: list-unit-files works out the state
  // of every unit it matches (~0.25 ms each: 47 ms for `tend-*` on a host with 200 against 6 for one).
  const checked = ctx.purpose === "check" && !fromTree ? [...new Set(targets.filter((t) => !isDistroUnit(t.resource)).map((t) => t.unit))] : undefined;
  const tendNames = fromTree && fromTree.unresolved.length <= UNITS_PER_COMMAND ? fromTree.unresolved : checked && checked.length <= UNITS_PER_COMMAND ? checked : ["tend-*"];
  const listed = [...new Set([...tendNames, ...distroUnits, ...templates])];
  const [fileList, loaded] = await Promise.all([listUnitFiles(listed, ctx), early ?? (ctx.root ? undefined : listLoadedUnits(patterns, ctx))]);
  const files = new Map([...(fromTree?.files ?? []), ...fileList]);
  if (ctx.root) await readInstancesOffline(distroUnits, files, ctx);
  const showFor = ctx.root ? [] : [...new Set(targets.filter((t) => needsShow(t, files)).map((t) => t.unit))];
  let shown = new Map<string, Record<string, string>>();
  if (showFor.length > 0) {
    const result = await ctx.run.run(systemctl(ctx, ["show", "-p", SHOW_PROPERTIES, "--", ...showFor]));
    shown = parseShowOutput(result.stdout, showFor);
  }
  return { files, loaded, shown };
}

/** `list-unit-files` for these names or patterns; nothing to ask when there are none. */
async function listUnitFiles(names: string[], ctx: ReadContext): Promise<Map<string, UnitFile>> {
  if (names.length === 0) return new Map();
  const command = systemctl(ctx, ["list-unit-files", "--output=json", "--", ...names], { okCodes: [0, 1] });
  const result = await ctx.run.run(command);
  // list-unit-files exits 1 when nothing matches, printing `[]`; without the list it failed.
  if (result.exitCode !== 0 && !result.stdout.trim().startsWith("[")) {
    throw errors.commandFailed(command.argv, result.exitCode, result.stderr.trim());
  }
  return parseListUnitFiles(result.stdout);
}

const SHOW_PROPERTIES = "Id,LoadState,ActiveState,UnitFileState,CanReload,RefuseManualStart,RefuseManualStop";

/**
 * What the two lists cannot answer for a distro unit: `CanReload` (for `reloadOn`), whether it
 * refuses a manual start or stop (for one apply may start, stop or restart), the state of a
 * template instance, and the real unit behind an alias (`sshd.service` on Debian is a link to
 * `ssh.service`: whether it is enabled is the real unit's answer).
 */
function needsShow(target: Target, files: Map<string, UnitFile>): boolean {
  const resource = target.resource;
  if (resource.type !== "service" || !isDistroUnit(resource)) return false;
  if (resource.desired?.state !== undefined || (resource.reloadOn?.length ?? 0) > 0 || (resource.restartOn?.length ?? 0) > 0) return true;
  const state = files.get(target.unit)?.state;
  return state === "alias" || (state === undefined && isInstance(target.unit));
}

/**
 * An instance (`getty@tty1.service`) in an image root: it exists when its template's file does,
 * and whether it is enabled is `systemctl --root is-enabled`'s answer (the instance's own links,
 * not the template's). One call for every such instance: `is-enabled` stops at the first unit it
 * cannot find, so only instances whose template exists are asked.
 */
async function readInstancesOffline(units: string[], files: Map<string, UnitFile>, ctx: ReadContext): Promise<void> {
  const instances = units.filter((unit) => !files.has(unit) && files.has(templateOf(unit) ?? ""));
  if (instances.length === 0) return;
  const command = systemctl(ctx, ["is-enabled", "--", ...instances], { okCodes: [0, 1] });
  const result = await ctx.run.run(command);
  const states = result.stdout.split("\n").filter((line) => line.trim() !== "");
  if (states.length !== instances.length) throw errors.commandFailed(command.argv, result.exitCode, result.stderr.trim());
  instances.forEach((unit, i) => files.set(unit, { state: states[i]!.trim(), preset: null }));
}

function toObservation(target: Target, readings: UnitReadings): Observation {
  const file = readings.files.get(target.unit);
  const live = readings.loaded?.get(target.unit);
  const shown = readings.shown.get(target.unit);
  const realUnit = shown?.Id && shown.Id !== target.unit ? shown.Id : undefined;
  const unitFileState = (realUnit ? shown?.UnitFileState : file?.state) || (shown?.UnitFileState || undefined);
  const loadState = live?.load ?? shown?.LoadState;
  const exists = unitFileState !== undefined || (loadState !== undefined && loadState !== "not-found");
  const observation: Observation = { exists, enabled: exists ? enabledFromUnitFileState(unitFileState) : false };
  if (unitFileState !== undefined) observation.unitFileState = unitFileState;
  if (readings.loaded) {
    // list-units knows units by their real names only: an alias's answer comes from show.
    const active = realUnit ? shown?.ActiveState : live?.active;
    observation.state = active === "active" || active === "reloading" ? "running" : "stopped";
  }
  const canReload = canReloadOf(target.resource, shown);
  if (canReload !== undefined) observation.canReload = canReload;
  const details: Record<string, string | boolean> = {};
  if (realUnit) details.unit = realUnit;
  if (loadState) details.load = loadState;
  if (live) {
    details.active = live.active;
    details.sub = live.sub;
  }
  if (file?.preset) details.preset = file.preset;
  if (shown?.RefuseManualStart === "yes") details.refuseManualStart = true;
  if (shown?.RefuseManualStop === "yes") details.refuseManualStop = true;
  if (Object.keys(details).length > 0) observation.details = details;
  return observation;
}

/**
 * A tend service can reload when its unit has `ExecReload=` (from `reloadSignal`, or set through
 * the hatch): known from the spec, before the unit is even written. A distro unit's answer is
 * systemd's `CanReload`.
 */
function canReloadOf(resource: Service | Timer, shown: Record<string, string> | undefined): boolean | undefined {
  if (resource.type === "timer") return undefined;
  if (resource.exec !== undefined) {
    return resource.reloadSignal !== undefined || hatchDirectives(resource.systemd).some(([section, key]) => section === "Service" && key === "ExecReload");
  }
  return shown?.CanReload === undefined ? undefined : shown.CanReload === "yes";
}
