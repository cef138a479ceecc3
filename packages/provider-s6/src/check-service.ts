import { errors, signalReachesProgram, type Resource, type TendError } from "@tend/core/contract";
import { signalFlag } from "./signal-flags.js";
import { dependencyProblem, serviceDependencies } from "./service-dependencies.js";

/**
 * What s6 cannot express beyond the capabilities the core checks: an `after` entry that cannot be
 * a dependency (it becomes a file name in `dependencies.d`), a `reloadSignal` s6-svc cannot
 * send, and one that would reach a shell rather than the program (s6-svc signals the supervised
 * pid only): the reload would end the service instead, so plan refuses it.
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
  } else if (resource.reloadSignal !== undefined && resource.exec !== undefined && !signalReachesProgram(resource.exec, resource.reloadSignal)) {
    found.push(
      errors.invalidField(
        ref,
        "reloadSignal",
        `\`exec\` is shell syntax that runs as \`/bin/sh -c\` without handing over to its last command (a pipeline, a background job or a compound command last), so s6-svc would send ${resource.reloadSignal} to that shell, which would end: s6-supervise would restart the service (or leave it down) instead of reloading it`,
        { hint: "Let the shell exec the program last (`cd /srv && server`), or put the pipeline in a script that traps the signal; otherwise use restartOn" },
      ),
    );
  }
  return found;
}
