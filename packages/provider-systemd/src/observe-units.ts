import { errors, type Observation, type ReadContext, type Resource, type Service, type Timer } from "@tend/core";
import { GRAPHICAL_TARGET, readDefaultTarget } from "./default-target.js";
import { enabledFromUnitFileState } from "./enabled-from-state.js";
import { hatchDirectives } from "./merge-escape-hatch.js";
import { parseListUnitFiles, type UnitFile } from "./parse-list-unit-files.js";
import { parseListUnits, type LoadedUnit } from "./parse-list-units.js";
import { parseShowOutput } from "./parse-show-output.js";
import { systemctl } from "./systemctl-command.js";
import { userUnitSearchPath } from "./unit-directories.js";
import { isDistroUnit, ownedUnits, primaryUnit } from "./unit-name.js";
import { dropInWarnings, findDropIns } from "./find-drop-ins.js";

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
 * afterWrites asks for those.
 */
export async function observeUnits(resources: Resource[], ctx: ReadContext): Promise<Map<string, Observation>> {
  const targets: Target[] = [];
  for (const resource of resources) {
    if (resource.type === "file") continue;
    targets.push({ key: `${resource.type}:${resource.name}`, resource, unit: primaryUnit(resource) });
  }
  const observations = new Map<string, Observation>();
  if (targets.length === 0) return observations;
  if (ctx.scope.kind === "user" && ctx.root) {
    for (const target of targets) observations.set(target.key, await observeUserUnitOffline(target, ctx));
    return observations;
  }
  const readings = await readUnits(targets, ctx);
  const displayManager = targets.some((t) => t.resource.type === "service" && t.resource.displayManager);
  const defaultTarget = displayManager ? await readDefaultTarget(ctx) : undefined;
  const dropIns = await findDropIns(targets.flatMap((t) => ownedUnits(t.resource)), ctx);
  for (const target of targets) {
    const observation = toObservation(target, readings);
    const foreign = ownedUnits(target.resource).flatMap((unit) => dropIns.get(unit) ?? []);
    if (foreign.length > 0) observation.warnings = dropInWarnings(foreign);
    if (target.resource.type === "service" && target.resource.displayManager && defaultTarget !== GRAPHICAL_TARGET) {
      observation.drift = [`the host boots to ${defaultTarget ?? "no default target"}, not ${GRAPHICAL_TARGET}`];
    }
    observations.set(target.key, observation);
  }
  return observations;
}

async function readUnits(targets: Target[], ctx: ReadContext): Promise<UnitReadings> {
  const distroUnits = [...new Set(targets.filter((t) => isDistroUnit(t.resource)).map((t) => t.unit))];
  const patterns = ["--", "tend-*", ...distroUnits];
  const listFiles = systemctl(ctx, ["list-unit-files", "--output=json", ...patterns], { okCodes: [0, 1] });
  const [fileList, unitList] = await Promise.all([
    ctx.run.run(listFiles),
    ctx.root ? undefined : ctx.run.run(systemctl(ctx, ["list-units", "--all", "--output=json", ...patterns])),
  ]);
  // list-unit-files exits 1 when nothing matches, printing `[]`; without the list it failed.
  if (fileList.exitCode !== 0 && !fileList.stdout.trim().startsWith("[")) {
    throw errors.commandFailed(listFiles.argv, fileList.exitCode, fileList.stderr.trim());
  }
  const files = parseListUnitFiles(fileList.stdout);
  const loaded = unitList ? parseListUnits(unitList.stdout) : undefined;
  const showFor = ctx.root ? [] : [...new Set(targets.filter((t) => needsShow(t, files)).map((t) => t.unit))];
  let shown = new Map<string, Record<string, string>>();
  if (showFor.length > 0) {
    const result = await ctx.run.run(systemctl(ctx, ["show", "-p", "Id,LoadState,ActiveState,UnitFileState,CanReload", "--", ...showFor]));
    shown = parseShowOutput(result.stdout, showFor);
  }
  return { files, loaded, shown };
}

/**
 * What the two lists cannot answer for a distro unit: `CanReload` (for `reloadOn`), the state of
 * a template instance, and the real unit behind an alias (`sshd.service` on Debian is a link to
 * `ssh.service`: whether it is enabled is the real unit's answer).
 */
function needsShow(target: Target, files: Map<string, UnitFile>): boolean {
  if (!isDistroUnit(target.resource)) return false;
  if (target.resource.type === "service" && (target.resource.reloadOn?.length ?? 0) > 0) return true;
  const state = files.get(target.unit)?.state;
  return state === "alias" || (state === undefined && isInstance(target.unit));
}

/** `name@instance.type`: such a unit has no unit file of its own, only its template's. */
function isInstance(unit: string): boolean {
  return /@[^@]+\.[a-z]+$/.test(unit);
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
  const details: Record<string, string> = {};
  if (realUnit) details.unit = realUnit;
  if (loadState) details.load = loadState;
  if (live) {
    details.active = live.active;
    details.sub = live.sub;
  }
  if (file?.preset) details.preset = file.preset;
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

/**
 * Offline in a user scope (systemd refuses `--user` with `--root`): the unit exists when a file
 * of that name is in one of the user manager's folders; whether it is enabled and running is
 * unobservable.
 */
async function observeUserUnitOffline(target: Target, ctx: ReadContext): Promise<Observation> {
  const home = ctx.scope.kind === "user" ? ctx.scope.home : ctx.host.home;
  for (const dir of userUnitSearchPath(home)) {
    if (await ctx.files.exists(`${dir}/${target.unit}`)) return { exists: true };
  }
  return { exists: false, enabled: false };
}
