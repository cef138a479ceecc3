import type { Probe, ReadContext, Resource } from "@tend/core/contract";
import { parseShowOutput } from "./parse-show-output.js";
import { systemctl } from "./systemctl-command.js";
import { primaryUnit } from "./unit-name.js";

const PROBE_PROPERTIES = "Id,LoadState,ActiveState,SubState,InvocationID,NRestarts,MainPID,Result";

/**
 * Health readings for verification, all units in one `systemctl show`.
 *
 * Up means `ActiveState=active` and nothing else: a crash-looping unit reads
 * `activating/auto-restart`, and a unit that has not finished starting is not up yet (the core
 * polls until it is). A oneshot with `RemainAfterExit=yes` reads `active/exited`, which is up.
 * The identity is the InvocationID (new on every start) plus NRestarts (systemd's own restart
 * counter): a service that dies and is restarted inside the settle window changes one of them.
 *
 * `Type=notify` readiness needs nothing here: `systemctl start` waits for the job, and the job of
 * a notify service finishes only at `READY=1`, so a unit that is active after start is ready.
 */
export async function probeUnits(resources: Resource[], ctx: ReadContext): Promise<Map<string, Probe>> {
  const targets = resources.flatMap((r) => (r.type === "file" || r.type === "package" ? [] : [{ key: `${r.type}:${r.name}`, unit: primaryUnit(r) }]));
  const probes = new Map<string, Probe>();
  if (targets.length === 0) return probes;
  const units = [...new Set(targets.map((t) => t.unit))];
  const result = await ctx.run.run(systemctl(ctx, ["show", "-p", PROBE_PROPERTIES, "--", ...units]));
  const shown = parseShowOutput(result.stdout, units);
  for (const target of targets) {
    const properties = shown.get(target.unit);
    if (!properties) {
      probes.set(target.key, { up: false, detail: `systemctl show said nothing about ${target.unit}` });
      continue;
    }
    probes.set(target.key, {
      up: properties.ActiveState === "active",
      identity: `${properties.InvocationID ?? ""}/${properties.NRestarts ?? ""}`,
      detail: describe(properties.Id ?? target.unit, properties),
    });
  }
  return probes;
}

/** `tend-web.service active/running, pid 42` or `… activating/auto-restart, result exit-code, 3 restarts`. */
function describe(unit: string, p: Record<string, string>): string {
  const parts = [`${unit} ${p.LoadState === "loaded" || p.LoadState === undefined ? "" : `${p.LoadState}, `}${p.ActiveState ?? "?"}/${p.SubState ?? "?"}`];
  if (p.MainPID && p.MainPID !== "0") parts.push(`pid ${p.MainPID}`);
  if (p.Result && p.Result !== "success") parts.push(`result ${p.Result}`);
  if (p.NRestarts && p.NRestarts !== "0") parts.push(`${p.NRestarts} restart${p.NRestarts === "1" ? "" : "s"}`);
  return parts.join(", ");
}
