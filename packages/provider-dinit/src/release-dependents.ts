import type { ApplyContext } from "@tend/core/contract";
import type { Dinitctl } from "./dinitctl.js";
import { findDescription } from "./find-description.js";
import type { ListResult } from "./list-services.js";
import { parseServiceDescription } from "./parse-service-description.js";
import { runDinitctl } from "./run-dinitctl.js";

/** dinitctl's answers when the dependency is already gone, or the dependent no longer loaded. */
const GONE = /no such dependency to remove|service not loaded|failed to find service description|error in service description|error loading service/;

/**
 * Before a tend service is stopped for its removal: the other tend services dinit holds loaded
 * whose descriptions depend on it let go of it (`dinitctl rm-dep`), so that they run on. The spec
 * no longer declares those dependencies (plan refuses one on a service the spec removes), and
 * their new descriptions are written and loaded by this same apply. Without it, `stop --force`
 * stops them, and everything that comes after them, and nothing starts those again: the services
 * apply does not change stay stopped. `removing` are the services this wave removes, which are
 * stopped anyway. Services that are not tend's keep their dependency, and are stopped with it.
 */
export async function releaseDependents(name: string, listed: ListResult, removing: Set<string>, dinitctl: Dinitctl, ctx: ApplyContext): Promise<void> {
  if (!listed.ok) return;
  for (const dependent of listed.services.keys()) {
    if (dependent === name || removing.has(dependent) || !dependent.startsWith("tend-")) continue;
    const found = await findDescription(dependent, ctx.scope, ctx.files);
    if (!found) continue;
    for (const dependency of parseServiceDescription(found.text).dependencies) {
      if (dependency.name === name) await runDinitctl(ctx, dinitctl, ["rm-dep", dependency.type, dependent, name], { benign: GONE });
    }
  }
}
