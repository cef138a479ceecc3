import { MANAGED_HEADER, shellQuote, type Service } from "@tend/core/contract";
import { END_GROUP_FUNCTION, GROUP_OF_FUNCTION } from "./process-group.js";
import { renderCommand } from "./render-command.js";
import { supervisionOf } from "./supervision.js";

/**
 * `/etc/init.d/tend-<name>` for a service with `exec`: an openrc-run script. openrc-run sources
 * it as root for every action (and to build the dependency tree), so every value is
 * single-quoted where it could expand.
 */
export function renderInitScript(service: Service & { exec: string }): string {
  const supervised = supervisionOf(service) === "supervise-daemon";
  const lines = ["#!/sbin/openrc-run", MANAGED_HEADER, ""];
  lines.push(`description=${shellQuote(service.description ?? service.name)}`);
  if (supervised) {
    if (service.restart === "on_failure") {
      lines.push('# restart = "on_failure": supervise-daemon restarts the program on any exit, as for "always"');
    }
    // respawn_max defaults to 10 respawns over the service's whole life, then the service fails.
    lines.push("supervisor=supervise-daemon", "respawn_delay=1", "respawn_max=0");
  } else {
    lines.push("command_background=true", 'pidfile="/run/${RC_SVCNAME}.pid"');
  }
  lines.push(...renderCommand(service.exec));
  if (supervised) {
    // start-stop-daemon has no place for these: Debian ships dpkg's, which lacks --stdout.
    lines.push('output_log="/var/log/${RC_SVCNAME}.log"', 'error_log="/var/log/${RC_SVCNAME}.log"');
  }
  if (service.reloadSignal) {
    lines.push('extra_started_commands="reload"', `description_reload=${shellQuote(`Send SIG${service.reloadSignal} to the program`)}`);
  }

  const env = Object.keys(service.env ?? {}).sort();
  if (env.length > 0) {
    lines.push("", ...env.map((key) => `export ${key}=${shellQuote(service.env![key]!)}`));
  }

  const depend = renderDepend(service.after ?? []);
  if (depend.length > 0) lines.push("", "depend() {", ...depend.map((line) => `\t${line}`), "}");

  lines.push("", ...renderStop(supervised));
  if (service.reloadSignal) lines.push("", ...renderReload(service.reloadSignal, supervised));
  return `${lines.join("\n")}\n`;
}

/** `need net` for `"network"`, `after tend-<name>` for another tend service. */
function renderDepend(after: string[]): string[] {
  const lines: string[] = [];
  if (after.includes("network")) lines.push("need net");
  const services = after.filter((entry) => entry !== "network").map((entry) => shellQuote(`tend-${entry}`));
  if (services.length > 0) lines.push(`after ${services.join(" ")}`);
  return lines;
}

/**
 * How a stop ends the service: OpenRC signals only the program, so `stop_post` ends the rest of
 * its process group (see process-group.ts), named in `stop_pre` before OpenRC forgets it.
 * supervise-daemon's child calls setsid(), so its pid is the group. start-stop-daemon
 * --background starts the program one fork after its setsid(), in a group whose leader is gone:
 * `start_post` keeps that group with OpenRC's values for the service (a service an older tend
 * started has it read at stop). openrc-run's own background stop matches `--exec $command`,
 * which is `/usr/bin/env` or `/bin/sh` while the process is the program they exec'd, and fails:
 * the pidfile alone is enough, and `--oknodo` lets a daemon that already exited count as stopped.
 */
function renderStop(supervised: boolean): string[] {
  const comment = "# OpenRC signals only the program: stop_post ends the rest of its process group.";
  if (supervised) {
    return [comment, "stop_pre() {", "\ttend_group=$(service_get_value child_pid)", "}", "", ...STOP_POST, "", ...END_GROUP_FUNCTION];
  }
  return [
    comment,
    "start_post() {",
    '\tservice_set_value tend_group "$(tend_group_of "$(cat "${pidfile}")")"',
    "}",
    "",
    "stop_pre() {",
    "\ttend_group=$(service_get_value tend_group)",
    '\t[ -n "$tend_group" ] || tend_group=$(tend_group_of "$(cat "${pidfile}" 2>/dev/null)")',
    "}",
    "",
    "stop() {",
    '\tebegin "Stopping ${RC_SVCNAME}"',
    '\tstart-stop-daemon --stop --oknodo --retry TERM/5/KILL/5 --pidfile "${pidfile}" && rm -f "${pidfile}"',
    "\teend $?",
    "}",
    "",
    ...STOP_POST,
    "",
    ...END_GROUP_FUNCTION,
    "",
    ...GROUP_OF_FUNCTION,
  ];
}

const STOP_POST = ["stop_post() {", '\ttend_end_group "$tend_group"', "}"];

/**
 * supervise-daemon signals its child itself. For a background daemon, `kill` on the pidfile:
 * OpenRC's start-stop-daemon takes `--signal` alone, dpkg's (Debian) only with `--stop`.
 */
function renderReload(signal: string, supervised: boolean): string[] {
  const send = supervised ? `supervise-daemon "\${RC_SVCNAME}" --signal ${signal}` : `kill -s ${signal} "$(cat "\${pidfile}")"`;
  return ["reload() {", '\tebegin "Reloading ${RC_SVCNAME}"', `\t${send}`, "\teend $?", "}"];
}
