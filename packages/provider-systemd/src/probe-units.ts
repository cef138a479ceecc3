import type { Probe, ReadContext, Resource } from "@tend/core/contract";
import { mainPidsFromCgroups, TEND_SERVICES } from "./main-pids-from-cgroups.js";
import { listLoadedUnits } from "./list-loaded-units.js";
import type { LoadedUnit } from "./parse-list-units.js";
import { parseShowOutput } from "./parse-show-output.js";
import { systemctl } from "./systemctl-command.js";
import { primaryUnit } from "./unit-name.js";
import { namedOrMatched } from "./units-per-command.js";

const PROBE_PROPERTIES = "Id,LoadState,ActiveState,SubState,InvocationID,NRestarts,MainPID,Result";

/** Up to this many units, one `show` costs less than a `list-units` and a shell (~0.7 ms a unit against ~10 ms). */
const SHOW_AT_MOST = 8;

/**
 * Health readings for verification, every unit at once.
 *
 * Up means `ActiveState=active` and nothing else: a crash-looping unit reads
 * `activating/auto-restart`, and a unit that has not finished starting is not up yet (the core
 * polls until it is). A oneshot with `RemainAfterExit=yes` reads `active/exited`, which is up.
 *
 * The identity tells a restart inside the settle window: for a service whose process runs
 * (`active/running`), its main pid (a restart is a new process); for any other unit, the
 * InvocationID (new on every start) and NRestarts (systemd's own restart counter).
 *
 * Past a few units, one `list-units` answers every unit's state, and the main pids of the running
 * services come from their control groups (mainPidsFromCgroups, one shell): a few milliseconds,
 * where a `show` of 200 units costs ~140 (a D-Bus call per unit). `show` is asked only about the
 * units these do not answer (all of them, when they are few): not running (a oneshot, a timer, a
 * unit that failed, whose result and restarts the detail names), not loaded, or whose group is
 * not plain (a user's services, a forking daemon with two processes).
 *
 * `Type=notify` readiness needs nothing here: `systemctl start` waits for the job, and the job of
 * a notify service finishes only at `READY=1`, so a unit that is active after start is ready.
 */
export async function probeUnits(resources: Resource[], ctx: ReadContext): Promise<Map<string, Probe>> {
  const targets = resources.flatMap((r) => (r.type === "file" || r.type === "package" ? [] : [{ key: `${r.type}:${r.name}`, unit: primaryUnit(r) }]));
  const probes = new Map<string, Probe>();
  if (targets.length === 0) return probes;
  const units = [...new Set(targets.map((t) => t.unit))];
  const listed = units.length > SHOW_AT_MOST ? await listUnits(units, ctx) : new Map<string, LoadedUnit>();
  const running = units.filter((unit) => listed.get(unit)?.active === "active" && listed.get(unit)?.sub === "running");
  const pids = await groupPids(running, ctx);
  const asked = units.filter((unit) => !pids.has(unit));
  const shown = asked.length > 0 ? parseShowOutput((await ctx.run.run(systemctl(ctx, ["show", "-p", PROBE_PROPERTIES, "--", ...asked]))).stdout, asked) : new Map<string, Record<string, string>>();
  for (const target of targets) {
    // A pid from the group is what show would have said of that unit: one reading for both.
    const pid = pids.get(target.unit);
    const properties = pid !== undefined ? { ActiveState: "active", SubState: "running", MainPID: String(pid) } : shown.get(target.unit);
    if (!properties) {
      probes.set(target.key, { up: false, detail: `systemctl show said nothing about ${target.unit}` });
      continue;
    }
    probes.set(target.key, { up: properties.ActiveState === "active", identity: identity(properties), detail: describe(properties.Id ?? target.unit, properties) });
  }
  return probes;
}

/** The loaded units among these (see namedOrMatched). */
function listUnits(units: string[], ctx: ReadContext): Promise<Map<string, LoadedUnit>> {
  return listLoadedUnits(namedOrMatched(units, "tend-*"), ctx);
}

/**
 * The main pids of these running units from their control groups (see namedOrMatched): of these
 * units only, since a group of a unit that does not run may still hold a process.
 */
async function groupPids(running: string[], ctx: ReadContext): Promise<Map<string, number>> {
  const found = await mainPidsFromCgroups(namedOrMatched(running, TEND_SERVICES), ctx);
  const wanted = new Set(running);
  return new Map([...found].filter(([unit]) => wanted.has(unit)));
}

/** A running service's main pid; any other unit's start (invocation) and restart count. */
function identity(p: Record<string, string>): string {
  const pid = Number(p.MainPID ?? 0);
  if (p.ActiveState === "active" && p.SubState === "running" && pid > 0) return `pid ${pid}`;
  return `${p.InvocationID ?? ""}/${p.NRestarts ?? ""}`;
}

/** `tend-web.service active/running, pid 42` or `… activating/auto-restart, result exit-code, 3 restarts`. */
function describe(unit: string, p: Record<string, string>): string {
  const parts = [`${unit} ${p.LoadState === "loaded" || p.LoadState === undefined ? "" : `${p.LoadState}, `}${p.ActiveState ?? "?"}/${p.SubState ?? "?"}`];
  if (p.MainPID && p.MainPID !== "0") parts.push(`pid ${p.MainPID}`);
  if (p.Result && p.Result !== "success") parts.push(`result ${p.Result}`);
  if (p.NRestarts && p.NRestarts !== "0") parts.push(`${p.NRestarts} restart${p.NRestarts === "1" ? "" : "s"}`);
  return parts.join(", ");
}
