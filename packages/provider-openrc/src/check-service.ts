import { errors, NAME_PATTERN, resourceKey, signalReachesProgram, type Resource, type TendError } from "@tend/core/contract";
import { reloadReachesShellError } from "./reload-reaches-shell-error.js";

/**
 * Variables openrc-run reads from the script it sources. An `export` of one of them in a tend
 * script would change how OpenRC runs the service (or, for IFS, how it parses everything).
 */
const OPENRC_VARIABLES = new Set([
  "IFS",
  "SVCNAME",
  "capabilities",
  "chroot",
  "command",
  "command_args",
  "command_args_background",
  "command_args_foreground",
  "command_background",
  "command_progress",
  "command_user",
  "description",
  "directory",
  "error_log",
  "error_logger",
  "extra_commands",
  "extra_started_commands",
  "extra_stopped_commands",
  "healthcheck_delay",
  "healthcheck_timer",
  "in_background",
  "name",
  "no_new_privs",
  "notify",
  "opts",
  "output_log",
  "output_logger",
  "pidfile",
  "procname",
  "respawn_delay",
  "respawn_max",
  "respawn_period",
  "retry",
  "secbits",
  "start_inactive",
  "start_stop_daemon_args",
  "stopsig",
  "supervise_daemon_args",
  "supervisor",
  "umask",
]);
const OPENRC_PREFIXES = ["RC_", "rc_", "EINFO_", "description_", "tend_"];

/**
 * OpenRC-specific checks beyond the capabilities: env names the script's own shell uses, `after`
 * entries, which land in `depend()` and must be service names, and a `reloadSignal` that would
 * reach a shell in front of the program instead of the program (a script with traps of its own
 * handles the signal itself).
 */
export function checkService(resource: Resource): TendError[] {
  if (resource.type !== "service") return [];
  const ref = resourceKey("service", resource.name);
  const problems: TendError[] = [];
  for (const key of Object.keys(resource.env ?? {})) {
    if (OPENRC_VARIABLES.has(key) || OPENRC_PREFIXES.some((prefix) => key.startsWith(prefix))) {
      problems.push(
        errors.invalidField(
          ref,
          "env",
          `\`${key}\` is a variable openrc-run reads from the service script, so exporting it there would change how OpenRC runs the service; rename it`,
        ),
      );
    }
  }
  for (const entry of resource.after ?? []) {
    if (entry !== "network" && !entry.endsWith(".target") && !NAME_PATTERN.test(entry)) {
      problems.push(errors.invalidField(ref, "after", `\`${entry}\` is neither "network" nor the name of a service`));
    }
  }
  const exec = resource.exec;
  if (resource.reloadSignal && exec !== undefined && !signalReachesProgram(exec, resource.reloadSignal)) {
    problems.push(reloadReachesShellError(ref, resource.reloadSignal));
  }
  return problems;
}
