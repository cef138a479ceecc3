import type { ApplyContext, ResourceChange } from "@tend/core/contract";
import { removeBootLink } from "./boot-link.js";
import { dinitctlFor } from "./dinitctl.js";
import { runDinitctl } from "./run-dinitctl.js";
import { dinitName } from "./service-paths.js";

/** dinitctl's answers when it cannot load a service at all, which therefore is not running. */
const UNLOADABLE = "failed to find service description|error in service description|error loading service";

/**
 * A removal, before the core deletes the description: a tend service is stopped, disabled and
 * unloaded (so dinit forgets it); a distro service is only disabled, its files left alone.
 * `stop --force` also stops what depends on it, as systemd does: such dependents are tend services
 * changed in the same apply (the plan refuses a dependency the spec no longer declares), which
 * apply starts again after their descriptions are reloaded.
 */
export async function removeService(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const service = change.resource;
  if (service.type !== "service") return;
  const name = dinitName(service);
  if (ctx.offline) {
    await removeBootLink(name, ctx);
    return;
  }
  const dinitctl = await dinitctlFor(ctx.scope, ctx.files);
  const ours = service.exec !== undefined;
  if (ours) await runDinitctl(ctx, dinitctl, ["stop", "--force", name], { benign: new RegExp(UNLOADABLE) });
  await runDinitctl(ctx, dinitctl, ["disable", name], { benign: new RegExp(`not currently enabled|${UNLOADABLE}`) });
  await removeBootLink(name, ctx);
  if (!ours) return;
  const unload = await runDinitctl(ctx, dinitctl, ["unload", name], {
    benign: new RegExp(`service not loaded|is a dependency of another service|${UNLOADABLE}`),
  });
  if (unload.benign && /dependency of another service/.test(unload.stderr)) {
    ctx.log(`${name}: left loaded (stopped) in dinit until the services that depend on it are reloaded`);
  }
}
