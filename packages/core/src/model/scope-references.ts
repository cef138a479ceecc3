import { errors } from "../errors/catalogue.js";
import type { ErrorLocation, TendError } from "../errors/tend-error.js";
import { refsOf } from "./dependencies-of.js";
import { canonicalReference } from "./reference.js";
import type { Resource } from "./resource-schema.js";
import { isUserUnit, userScopeFiles } from "./scope-of-files.js";

/**
 * References that no run can honour, because their two ends are applied by different runs (the
 * system's, as root, and each user's): a service restarted or reloaded on a change the other
 * scope makes, or a system resource naming a File that a user's service makes the user run's
 * (see userScopeFiles). Such a reference would be accepted and silently never act. `requires`
 * between a user service and a system service or package stays: the system run goes first.
 */
export function scopeReferenceErrors(resources: readonly (Resource | undefined)[], locate: (index: number, path: (string | number)[]) => ErrorLocation): TendError[] {
  const found: TendError[] = [];
  const byKey = new Map<string, Resource>();
  for (const resource of resources) if (resource) byKey.set(`${resource.type}:${resource.name}`, resource);
  const userFiles = userScopeFiles(resources);
  resources.forEach((resource, index) => {
    if (!resource) return;
    const key = `${resource.type}:${resource.name}`;
    const mine = isUserUnit(resource) || userFiles.has(key) ? "user" : "system";
    for (const field of ["requires", "restartOn", "reloadOn"] as const) {
      refsOf(resource, field).forEach((ref, i) => {
        const target = canonicalReference(ref);
        const other = target === undefined ? undefined : byKey.get(target);
        if (!other || target === key) return;
        const at = { ...locate(index, [field, i]), field };
        const does = field === "reloadOn" ? "reload" : "restart";
        if (other.type === "file" && mine === "system" && userFiles.has(target!)) {
          const namedBy = userFiles.get(target!)!;
          found.push(errors.invalidField(key, field, `names ${target}, which ${namedBy} names too: a File a user service or timer names is written by that user's run, and ${key}, the system's, would never see it`, at));
          return;
        }
        if (field === "requires" || resource.type !== "service") return;
        if ((other.type === "service" || other.type === "timer") && isUserUnit(other) !== isUserUnit(resource)) {
          const [theirs, ours] = isUserUnit(resource) ? ["a system", "a user"] : ["a user", "a system"];
          found.push(errors.invalidField(key, field, `names ${target}, ${theirs} ${other.type}, and ${key} is ${ours} service: each scope is applied by a run of its own, so a change to ${target} would never ${does} ${key}`, at));
        } else if (other.type === "package" && isUserUnit(resource)) {
          found.push(errors.invalidField(key, field, `names ${target}, and ${key} is a user service: packages are the system run's, and a user's run never sees one change, so it would never ${does} ${key}`, at));
        }
      });
    }
  });
  return found;
}
