import type { ApplyContext, ResourceChange, Service, Timer } from "@tend/core/contract";
import { applyOffline } from "./apply-batch.js";
import { releaseGraphicalTarget } from "./default-target.js";
import { notStopped, removeChange } from "./remove-change.js";
import { refusesManualOperations } from "./refused-operations.js";
import { systemctl } from "./systemctl-command.js";
import { isDistroUnit, ownedUnits } from "./unit-name.js";
import { UNITS_PER_COMMAND } from "./units-per-command.js";

/**
 * A wave of removals: tend's own units stopped and disabled with one `systemctl disable --now`
 * per chunk, those that refuse a manual start or stop only disabled (seed: never stopped by
 * apply). A chunk that fails, distro units, display managers and image roots take the one-by-one
 * path, which knows their special cases.
 */
export async function removeBatch(changes: ResourceChange[], ctx: ApplyContext): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  if (ctx.offline) {
    const units = changes.filter((c): c is ResourceChange & { resource: Service | Timer } => (c.resource.type !== "file" && c.resource.type !== "package"));
    await applyOffline(units.map((c) => ({ ...c, ops: ["disable"] })), ctx, failures);
    for (const change of units) {
      if (change.resource.type !== "service" || !change.resource.displayManager || failures.has(change.key)) continue;
      await releaseGraphicalTarget(change.key, ctx).catch((error: unknown) => void failures.set(change.key, error));
    }
    return failures;
  }
  const simple = changes.filter((c) => (c.resource.type !== "file" && c.resource.type !== "package") && !isDistroUnit(c.resource) && !(c.resource.type === "service" && c.resource.displayManager));
  const alone = changes.filter((c) => !simple.includes(c));
  const refusing = simple.filter((c) => c.resource.type === "service" && refusesManualOperations(c.resource));
  for (const [verb, list] of [
    [["disable", "--now"], simple.filter((c) => !refusing.includes(c))],
    [["disable"], refusing],
  ] as const) {
    for (let at = 0; at < list.length; at += UNITS_PER_COMMAND) {
      const chunk = list.slice(at, at + UNITS_PER_COMMAND);
      const units = chunk.flatMap((c) => (c.resource.type === "file" || c.resource.type === "package" ? [] : ownedUnits(c.resource)));
      // exit 0 only when every unit was disabled (and stopped); anything else is sorted out one by one
      const result = await ctx.run.run(systemctl(ctx, [...verb, "--", ...units], { okCodes: "any", timeoutMs: 120_000 + 200 * units.length }));
      if (result.exitCode !== 0) alone.push(...chunk);
      else if (verb.length === 1) for (const change of chunk) ctx.log(notStopped(change.key));
    }
  }
  for (const change of alone) {
    try {
      await removeChange(change, ctx);
    } catch (error) {
      failures.set(change.key, error);
    }
  }
  return failures;
}
