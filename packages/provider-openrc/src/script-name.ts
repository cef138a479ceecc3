import type { Service } from "@tend/core/contract";

/** Runlevels whose services OpenRC starts at boot, in boot order. */
export const BOOT_RUNLEVELS = ["sysinit", "boot", "default"] as const;

/** The runlevel tend enables services in (the seed's `rc-update add <name> default`). */
export const DEFAULT_RUNLEVEL = "default";

/** The OpenRC service name: `tend-<name>` for a service tend writes, the distro's own name otherwise. */
export function scriptName(service: Service): string {
  return service.exec === undefined ? service.name : `tend-${service.name}`;
}

/** `/etc/init.d/<script>`. */
export function initScriptPath(script: string): string {
  return `/etc/init.d/${script}`;
}

/** The link that puts a service in a runlevel, as `rc-update add` makes it. */
export function runlevelLinkPath(script: string, runlevel: string): string {
  return `/etc/runlevels/${runlevel}/${script}`;
}
