import { errors, NAME_PATTERN, type Resource, type TendError, signalReachesProgram } from "@tend/core/contract";
import { afterServices } from "./after-dependencies.js";
import { SV_SIGNALS, svSignalCommand } from "./sv-signal-command.js";

/**
 * What runit cannot express beyond the capabilities the core checks: a `reloadSignal` sv cannot
 * send or that would reach a shell rather than the program, an `after` entry that names no service, a user service without `exec` (runit's distro
 * services are system services in /etc/sv), and a distro service running while disabled.
 */
export function checkService(resource: Resource): TendError[] {
  if (resource.type !== "service") return [];
  const ref = `service:${resource.name}`;
  const problems: TendError[] = [];
  if (resource.reloadSignal !== undefined && svSignalCommand(resource.reloadSignal) === undefined) {
    problems.push(
      errors.invalidField(ref, "reloadSignal", `runit's sv cannot send ${resource.reloadSignal}; it sends ${SV_SIGNALS.join(", ")}`, {
        hint: "Pick a signal sv can send, or use restartOn",
      }),
    );
  }
  const missed =
    resource.reloadSignal !== undefined && resource.exec !== undefined && !signalReachesProgram(resource.exec, resource.reloadSignal)
      ? `\`exec\` is shell syntax that runs as \`/bin/sh -c\` without handing over to its last command (a pipeline, a background job or a compound command last), so sv would send ${resource.reloadSignal} to that shell, which would end, and runsv would restart the service instead of reloading it`
      : undefined;
  if (missed) {
    problems.push(
      errors.invalidField(ref, "reloadSignal", missed, {
        hint: "Let the shell exec the program last (`cd /srv && server`), or put the pipeline in a script that traps the signal; otherwise use restartOn",
      }),
    );
  }
  for (const entry of afterServices(resource)) {
    if (!NAME_PATTERN.test(entry)) {
      problems.push(errors.invalidField(ref, "after", `\`${entry}\` is neither \`network\` nor the name of another tend service`));
    }
  }
  if (resource.exec === undefined && resource.user === true) {
    problems.push(
      errors.invalidField(ref, "user", "a service without exec enables a distro service in /etc/sv, and runit's distro services are system services", {
        hint: "Drop `user`, or give the service an exec",
      }),
    );
  }
  if (resource.exec === undefined && resource.desired?.enabled === false && resource.desired.state === "running") {
    problems.push(
      errors.invalidField(ref, "desired", "runit supervises a distro service only while it is linked into the runsvdir, which also starts it at boot, so it cannot run without being enabled", {
        hint: "Use `desired: {state: running, enabled: true}`, or stop it",
      }),
    );
  }
  return problems;
}
