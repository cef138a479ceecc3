import type { ApplyContext, ResourceChange } from "@tend/core/contract";
import { rendersDownFile } from "./down-file.js";

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
