import type { ApplyContext } from "../contract/context.js";
import type { Probe } from "../contract/observation.js";
import type { ProviderDefinition } from "../contract/provider.js";
import { errors } from "../errors/catalogue.js";
import type { TendError } from "../errors/tend-error.js";
import type { Resource } from "../model/resource-schema.js";

export const DEFAULT_SETTLE_MS = 2_000;
const POLL_MS = 250;

export interface VerifyTarget {
  key: string;
  resource: Resource;
  provider: ProviderDefinition;
  ctx: ApplyContext;
}

/**
 * Verification after a start or restart: each service must come up (within its provider's
 * start timeout) and then stay up across its settle window with the same identity (the same
 * invocation, pid or restart count). A service that dies or restarts inside the window fails,
 * with its last log lines. With a window of 0 (`verify.settle: 0` for every service verified
 * together) coming up is enough: no second reading.
 */
export async function verifyServices(targets: VerifyTarget[], sleep: (ms: number) => Promise<void>): Promise<TendError[]> {
  const failures: TendError[] = [];
  const byProvider = new Map<ProviderDefinition, VerifyTarget[]>();
  for (const target of targets) {
    if (!target.provider.probe) continue;
    byProvider.set(target.provider, [...(byProvider.get(target.provider) ?? []), target]);
  }
  for (const [provider, list] of byProvider) {
    const ctx = list[0]!.ctx;
    const probe = (items: VerifyTarget[]) => provider.probe!(items.map((t) => t.resource), ctx);
    // A monotonic clock: a wall-clock step (NTP, a VM resumed) neither cuts the wait short nor stretches it.
    const deadline = performance.now() + (provider.startTimeoutMs ?? 5_000);
    let first = await probe(list);
    let waiting = list.filter((t) => !first.get(t.key)?.up);
    while (waiting.length > 0 && performance.now() < deadline) {
      await sleep(POLL_MS);
      const again = await probe(waiting);
      for (const [key, value] of again) first.set(key, value);
      waiting = waiting.filter((t) => !first.get(t.key)?.up);
    }
    const up = list.filter((t) => first.get(t.key)?.up);
    for (const target of waiting) failures.push(await failure(target, `it did not come up (${first.get(target.key)?.detail ?? "no reading"})`));
    if (up.length === 0) continue;
    const settle = Math.max(...up.map((t) => settleMs(t.resource)));
    // No window asked for: the reading that saw them up is the verdict.
    if (settle === 0) continue;
    await sleep(settle);
    const after = await probe(up);
    for (const target of up) {
      const before = first.get(target.key)!;
      const now: Probe | undefined = after.get(target.key);
      if (!now?.up) failures.push(await failure(target, `it stopped within ${settle / 1000} s of starting (${now?.detail ?? "no reading"})`));
      else if (before.identity !== undefined && now.identity !== before.identity) {
        failures.push(await failure(target, `it restarted within ${settle / 1000} s of starting (${before.detail} -> ${now.detail})`));
      }
    }
  }
  return failures;
}

function settleMs(resource: Resource): number {
  return resource.type === "service" && resource.verify ? resource.verify.settle * 1000 : DEFAULT_SETTLE_MS;
}

async function failure(target: VerifyTarget, why: string): Promise<TendError> {
  let lines: string[] = [];
  try {
    lines = (await target.provider.logs?.(target.resource, target.ctx)) ?? [];
  } catch {
    // logs are a courtesy; the failure stands without them
  }
  return errors.verifyFailed(target.key, why, {
    provider: target.provider.name,
    ...(lines.length > 0 ? { hint: `last log lines:\n${lines.map((l) => `  ${l}`).join("\n")}` } : {}),
  });
}
