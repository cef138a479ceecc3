import type { Service } from "@tend/core/contract";
import { initScriptPath, scriptName } from "./script-name.js";

/** `rc-status -C -s`: every service in /etc/init.d with its state, in one read-only call. */
export const RC_STATUS_ARGV = ["rc-status", "-C", "-s"];

export type ServiceAction = "start" | "stop" | "restart" | "reload" | "zap";

/** `rc-service -- <name> <action>`. */
export function rcService(script: string, action: ServiceAction): string[] {
  return ["rc-service", "--", script, action];
}

/**
 * The command for an action on a service: `rc-service` for tend's scripts (the seed's), and
 * `openrc-run /etc/init.d/<name> <action>` for a distro service. rc-service runs a script
 * directly, which for an openrc-run script is the same thing, but a sysv script (Debian's `cron`)
 * is no openrc-run script: run directly it starts or stops the daemon while OpenRC's record of
 * the service stays as it was (`started` after a stop). openrc-run runs it and keeps the record.
 */
export function serviceAction(service: Service, action: ServiceAction): string[] {
  return service.exec === undefined ? ["openrc-run", initScriptPath(scriptName(service)), action] : rcService(scriptName(service), action);
}
