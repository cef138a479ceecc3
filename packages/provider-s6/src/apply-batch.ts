import { errors, type ApplyContext, type Operation, type ResourceChange } from "@tend/core/contract";
import { rcChangeBatch, type RcTarget } from "./rc-change-batch.js";
import { restartedByUpdate } from "./s6-rc-state.js";
import { liveServiceDir, serviceName } from "./s6-layout.js";
import { signalFlag } from "./signal-flags.js";
import { SVC_WAIT_MS, svcBatch, type SvcTarget } from "./svc-batch.js";

/** One service of the wave. */
interface Item {
  change: ResourceChange;
  name: string;
  dir: string;
}

/** `s6-svc -d`, waiting until the program is down and `./finish` (which ends its session) has exited. */
const DOWN_AND_FINISHED = ["-d", "-wD", "-T", String(SVC_WAIT_MS)];

/**
 * Carries out a wave of adds and changes once the database is switched, with a fixed number of
 * commands however many services the wave holds:
 *
 * 1. `s6-rc -d change` of the services to stop, which waits for each (`s6-svc -dwD`);
 * 2. `s6-svc -dwD` of those again (s6-rc's bookkeeping may list a longrun as down that s6-supervise
 *    still runs) and of the services to restart here: down, and their `./finish` done, so the old
 *    program and everything it started are gone before the new one starts;
 * 3. `s6-rc -u change` of the services to start and to restart (it also brings up what they
 *    depend on, and waits for readiness where a `notification-fd` asks for it);
 * 4. `s6-svc -u` of the same: s6-rc's bookkeeping still lists a longrun as up after its
 *    `finish` exited 125 or someone ran `s6-svc -d`, and then `s6-rc -u change` alone does nothing;
 * 5. one `s6-svc` per reload signal (`-h` for HUP), which reaches the program itself.
 *
 * A restart is a stop and a start rather than `s6-svc -r`: the `finish` of restart "no" (and of
 * "on_failure" after a clean exit) exits 125, which would leave the service down. A changed
 * definition that s6-rc-update already restarted through its conversion file is only brought up.
 * `enable` and `disable` have no command: boot membership is the `tend` bundle in the database
 * `afterWrites` compiled. Offline nothing runs. Each failure is pinned on its service; the others
 * go on.
 */
export async function applyBatch(changes: ResourceChange[], ctx: ApplyContext): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  if (ctx.offline) return failures;
  const items: Item[] = changes.map((change) => ({ change, name: serviceName(change.resource.name), dir: liveServiceDir(change.resource.name) }));
  for (const item of items) {
    if (item.change.ops.includes("reload") && reloadFlag(item.change) === undefined) failures.set(item.change.key, errors.cannotReload(item.change.key, "s6"));
  }
  const live = (op: Operation) => items.filter((item) => item.change.ops.includes(op) && !failures.has(item.change.key));
  const record = (found: Map<string, unknown>) => found.forEach((error, key) => failures.set(key, error));

  const stopping = live("stop");
  record(await rcChangeBatch(ctx, "down", stopping.map(rcTarget)));
  const restartingHere = live("restart").filter((item) => !(item.change.filesChanged && restartedByUpdate(ctx.state, item.name)));
  record(await svcBatch(ctx, DOWN_AND_FINISHED, [...stopping, ...restartingHere].filter(notFailed(failures)).map(svcTarget)));

  const starting = [...live("start"), ...live("restart")];
  record(await rcChangeBatch(ctx, "up", starting.map(rcTarget)));
  const superviseUp = [...live("start"), ...restartingHere.filter(notFailed(failures))];
  record(await svcBatch(ctx, ["-u"], superviseUp.map(svcTarget)));

  const reloading = live("reload");
  for (const flag of new Set(reloading.map((item) => reloadFlag(item.change)!))) {
    record(await svcBatch(ctx, [flag], reloading.filter((item) => reloadFlag(item.change) === flag).map(svcTarget)));
  }
  return failures;
}

/** {@link applyBatch} for one change, throwing its failure. */
export async function applyService(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const failure = (await applyBatch([change], ctx)).get(change.key);
  if (failure !== undefined) throw failure;
}

function reloadFlag(change: ResourceChange): string | undefined {
  const signal = change.resource.type === "service" ? change.resource.reloadSignal : undefined;
  return signal === undefined ? undefined : signalFlag(signal);
}

const notFailed = (failures: Map<string, unknown>) => (item: Item) => !failures.has(item.change.key);
const rcTarget = (item: Item): RcTarget => ({ key: item.change.key, name: item.name });
const svcTarget = (item: Item): SvcTarget => ({ key: item.change.key, dir: item.dir });
