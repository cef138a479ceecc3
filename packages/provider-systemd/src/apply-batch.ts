import type { ApplyContext, Operation, ResourceChange, Service, Timer } from "@tend/core/contract";
import { holdGraphicalTarget } from "./default-target.js";
import { parseShowOutput } from "./parse-show-output.js";
import { resolveUnitName } from "./resolve-unit-name.js";
import { setEnabledOffline } from "./set-enabled-offline.js";
import { systemctl } from "./systemctl-command.js";
import { isDistroUnit, primaryUnit } from "./unit-name.js";
import { UNITS_PER_COMMAND } from "./units-per-command.js";

/** The order a unit's operations run in, as the planner orders them. */
const ORDER: Operation[] = ["stop", "disable", "enable", "start", "restart", "reload"];

/** Deadlines: systemd's own start and stop timeouts are 90 s; a batch's jobs run side by side. */
const BASE_TIMEOUT_MS: Record<Operation, number> = { enable: 60_000, disable: 60_000, start: 120_000, stop: 120_000, restart: 120_000, reload: 120_000 };

const PAST: Record<Operation, string> = { enable: "enabled", disable: "disabled", start: "started", stop: "stopped", restart: "restarted", reload: "reloaded" };

/**
 * Carries out a wave of adds and changes with one `systemctl <op> -- u1 u2 …` per operation
 * (chunked), instead of one per unit: the operations in each unit's own order, a unit to be both
 * enabled and started with one `enable --now` (so a fresh wave of any size is one command), a
 * unit's `reload` always `systemctl reload` (never `reload-or-restart`, which would restart a
 * unit that cannot reload). A distro unit is enabled and disabled by its real name (systemd
 * refuses an alias). When a batch fails, each of its units is tried alone, so the failure is
 * pinned on the unit that caused it. Offline (`--root`) units are enabled and disabled in the
 * image, and nothing runs.
 */
export async function applyBatch(changes: ResourceChange[], ctx: ApplyContext): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  const units = changes.filter((c): c is UnitChange => c.resource.type !== "file");
  for (const change of units) {
    if (change.resource.type !== "service" || !change.resource.displayManager) continue;
    try {
      await holdGraphicalTarget(change.key, ctx);
    } catch (error) {
      failures.set(change.key, error);
    }
  }
  if (ctx.offline) {
    await applyOffline(units, ctx, failures);
    return failures;
  }
  const realNames = await distroUnitNames(units, ctx);
  const nameOf = (c: UnitChange, op: Operation) =>
    (op === "enable" || op === "disable") && isDistroUnit(c.resource) ? (realNames.get(primaryUnit(c.resource)) ?? primaryUnit(c.resource)) : primaryUnit(c.resource);
  const enablesNow = (c: UnitChange) => c.ops.includes("enable") && c.ops.includes("start");
  for (const op of ORDER) {
    const targets = units.filter((c) => !failures.has(c.key) && c.ops.includes(op));
    if (op === "enable") {
      await runChunked(["enable", "--now"], "start", targets.filter(enablesNow), (c) => nameOf(c, op), ctx, failures);
      await runChunked(["enable"], op, targets.filter((c) => !enablesNow(c)), (c) => nameOf(c, op), ctx, failures);
    } else {
      await runChunked([op], op, op === "start" ? targets.filter((c) => !enablesNow(c)) : targets, (c) => nameOf(c, op), ctx, failures);
    }
  }
  return failures;
}

type UnitChange = ResourceChange & { resource: Service | Timer };

/** `systemctl <verb…> -- u1 u2 …` per chunk; a failed chunk retried unit by unit, each failure kept by key. */
async function runChunked(verb: string[], op: Operation, targets: UnitChange[], nameOf: (c: UnitChange) => string, ctx: ApplyContext, failures: Map<string, unknown>): Promise<void> {
  for (let at = 0; at < targets.length; at += UNITS_PER_COMMAND) {
    const chunk = targets.slice(at, at + UNITS_PER_COMMAND);
    try {
      await ctx.run.run(systemctl(ctx, [...verb, "--", ...chunk.map(nameOf)], { timeoutMs: BASE_TIMEOUT_MS[op] + 200 * chunk.length }));
    } catch (batchError) {
      if (chunk.length === 1) {
        failures.set(chunk[0]!.key, batchError);
        continue;
      }
      for (const change of chunk) {
        try {
          await ctx.run.run(systemctl(ctx, [...verb, "--", nameOf(change)], { timeoutMs: BASE_TIMEOUT_MS[op] }));
        } catch (error) {
          failures.set(change.key, error);
        }
      }
    }
  }
}

/** Enables and disables a wave in an image root: one `systemctl --root` per operation for system units, links by hand for user units. */
export async function applyOffline(units: UnitChange[], ctx: ApplyContext, failures: Map<string, unknown>): Promise<void> {
  for (const op of ["disable", "enable"] as const) {
    const targets = units.filter((c) => !failures.has(c.key) && c.ops.includes(op));
    if (targets.length === 0) continue;
    if (ctx.scope.kind === "user") {
      for (const change of targets) {
        try {
          await setEnabledOffline(change.resource, op, ctx);
        } catch (error) {
          failures.set(change.key, error);
        }
      }
      continue;
    }
    const names = await Promise.all(targets.map(async (c) => (isDistroUnit(c.resource) ? resolveUnitName(primaryUnit(c.resource), ctx) : primaryUnit(c.resource))));
    for (let at = 0; at < targets.length; at += UNITS_PER_COMMAND) {
      try {
        await ctx.run.run(systemctl(ctx, [op, "--", ...names.slice(at, at + UNITS_PER_COMMAND)]));
      } catch (batchError) {
        for (const change of targets.slice(at, at + UNITS_PER_COMMAND)) {
          try {
            await setEnabledOffline(change.resource, op, ctx);
          } catch (error) {
            failures.set(change.key, error ?? batchError);
          }
        }
      }
    }
  }
  for (const change of units) {
    const skipped = change.ops.filter((op) => op !== "enable" && op !== "disable");
    if (skipped.length > 0 && !failures.has(change.key)) {
      ctx.log(`${change.key}: not ${skipped.map((op) => PAST[op]).join(" or ")}: applying into an image root, where nothing runs until it boots`);
    }
  }
}

/** The real names of the distro units to be enabled or disabled, from one `systemctl show -p Id`. */
async function distroUnitNames(units: UnitChange[], ctx: ApplyContext): Promise<Map<string, string>> {
  const names = [...new Set(units.filter((c) => isDistroUnit(c.resource) && c.ops.some((op) => op === "enable" || op === "disable")).map((c) => primaryUnit(c.resource)))];
  if (names.length === 0) return new Map();
  const result = await ctx.run.run(systemctl(ctx, ["show", "-p", "Id", "--", ...names]));
  const shown = parseShowOutput(result.stdout, names);
  return new Map(names.map((name) => [name, shown.get(name)?.Id || name]));
}
