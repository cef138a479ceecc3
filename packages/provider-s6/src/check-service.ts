import { errors, type Resource, type TendError } from "@tend/core/contract";
import { signalFlag } from "./signal-flags.js";
import { dependencyProblem, serviceDependencies } from "./service-dependencies.js";

/**
 * What s6 cannot express beyond the capabilities the core checks: an `after` entry that cannot be
 * a dependency (it becomes a file name in `dependencies.d`), and a `reloadSignal` s6-svc cannot
 * send.
 */
export function checkService(resource: Resource): TendError[] {
  if (resource.type !== "service") return [];
  const ref = `service:${resource.name}`;
  const found: TendError[] = [];
  for (const entry of serviceDependencies(resource)) {
    const problem = dependencyProblem(resource, entry);
    if (problem) found.push(errors.invalidField(ref, "after", problem));
  }
  if (resource.reloadSignal !== undefined && signalFlag(resource.reloadSignal) === undefined) {
    found.push(errors.invalidField(ref, "reloadSignal", `s6-svc cannot send SIG${resource.reloadSignal}`));
  }
  return found;
}
