import type { ApplyContext, ResourceChange } from "@tend/core/contract";
import { rendersDownFile, TRANSIENT_DOWN_CONTENT } from "./down-file.js";
import { readSvStatus } from "./read-sv-status.js";
import { serviceLayout } from "./service-layout.js";

/**
 * A new tend service that is to be stopped but start at boot (`desired: {state: stopped,
 * enabled: true}`) gets a `down` file between the core's writes and runsv's first look, so runsv
 * does not run it even once; the add removes it again after pickup (runsv reads it only when it
 * starts). Not under `--root`: the image should start it at boot.
 */
export function holdsTransientDown(change: ResourceChange, ctx: Pick<ApplyContext, "offline">): boolean {
  const service = change.resource;
  return (
    !ctx.offline &&
    change.action === "add" &&
    service.type === "service" &&
    service.exec !== undefined &&
    service.desired?.state === "stopped" &&
    !rendersDownFile(service)
  );
}

/**
 * The changed services that need the same hold: starting at boot, with no runsv on their
 * directory yet (an apply killed moments after linking it, before runsvdir's next scan). runsv
 * would start whatever `run` holds when it picks the directory up, maybe before this apply wrote
 * it; held, it starts nothing, and the apply stops it in case its runsv came first, then starts
 * it if it is wanted running (so the program is the one this apply wrote).
 */
export async function unsupervisedChanges(changes: ResourceChange[], ctx: ApplyContext): Promise<ResourceChange[]> {
  if (ctx.offline) return [];
  const candidates = changes.flatMap((change) => {
    const service = change.resource;
    const tend = change.action === "change" && service.type === "service" && service.exec !== undefined && !rendersDownFile(service);
    return tend ? [{ change, dir: serviceLayout(service, ctx).dir }] : [];
  });
  if (candidates.length === 0) return [];
  const statuses = await readSvStatus(candidates.map(({ dir }) => dir), ctx);
  // No runsv answered (a status has either a service state or an error), as observe-services reads it.
  return candidates.filter(({ dir }) => statuses.get(dir)?.service === undefined).map(({ change }) => change);
}

/** Whether the service's directory holds a transient `down` file now: one this apply wrote, or one a killed apply left. */
export async function holdsDownNow(dir: string, ctx: Pick<ApplyContext, "files">): Promise<boolean> {
  return (await ctx.files.readFile(`${dir}/down`)) === TRANSIENT_DOWN_CONTENT;
}
