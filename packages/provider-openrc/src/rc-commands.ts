import { DEFAULT_RUNLEVEL } from "./script-name.js";

/** `rc-status -C -s`: every service in /etc/init.d with its state, in one read-only call. */
export const RC_STATUS_ARGV = ["rc-status", "-C", "-s"];

/** `rc-update add -- <name> default` (exit 0 also when it is already there). */
export function rcUpdateAdd(script: string): string[] {
  return ["rc-update", "add", "--", script, DEFAULT_RUNLEVEL];
}

/** `rc-update del -- <name> <runlevel>` (exit 1 when it is not in that runlevel: check first). */
export function rcUpdateDel(script: string, runlevel: string): string[] {
  return ["rc-update", "del", "--", script, runlevel];
}

/** `rc-service -- <name> <action>`. */
export function rcService(script: string, action: "start" | "stop" | "restart" | "reload" | "zap"): string[] {
  return ["rc-service", "--", script, action];
}
