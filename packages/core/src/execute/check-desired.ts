import type { ProviderDefinition } from "../contract/provider.js";
import { errors } from "../errors/catalogue.js";
import type { TendError } from "../errors/tend-error.js";
import { desiredOf } from "../plan/desired-of.js";
import type { PlanEntry } from "../plan/plan-types.js";
import type { Session } from "../session/session.js";
import type { StateFile } from "../state/state-file.js";

/** After an apply: the state the spec asked for is the state the init reports, for every service acted on. */
export async function checkDesired(
  session: Session,
  active: PlanEntry[],
  assigned: Map<string, ProviderDefinition>,
  state: StateFile,
  failed: Set<string>,
): Promise<TendError[]> {
  const services = active.filter((e) => e.action !== "remove" && e.resource.type === "service" && !failed.has(e.key));
  if (services.length === 0) return [];
  const observed = await session.observeAll(services.map((e) => e.resource), assigned, state, "check");
  const problems: TendError[] = [];
  for (const entry of services) {
    if (entry.resource.type !== "service") continue;
    const now = observed.get(entry.key);
    if (!now) continue;
    const refused = assigned.get(entry.key)?.refusedOperations?.(entry.resource, now) ?? [];
    const desired = desiredOf(entry.resource);
    if (desired.state && now.state !== undefined && now.state !== desired.state && !refused.includes(desired.state === "running" ? "start" : "stop")) {
      problems.push(errors.verifyFailed(entry.key, `the init reports it ${now.state}, and the spec wants it ${desired.state}`));
    }
    if (now.enabled !== undefined && now.enabled !== desired.enabled) {
      problems.push(errors.verifyFailed(entry.key, `the init reports it ${now.enabled ? "enabled" : "disabled"} at boot, and the spec wants it ${desired.enabled ? "enabled" : "disabled"}`));
    }
  }
  return problems;
}
