import type { RenderContext, Service } from "@tend/core/contract";

/** Where runit keeps service directories on Debian and Void. */
export const SV_ROOT = "/etc/sv";
/** The directory runsvdir scans at boot (Debian: /etc/service -> runsvdir/current -> default). */
export const RUNSVDIR = "/etc/runit/runsvdir/default";

/** Where a service lives on a runit host. */
export type ServiceLayout = DistroLayout | TendLayout;

/** A service without `exec`: `/etc/sv/<name>`, shipped by a package, which tend only links. */
export interface DistroLayout {
  distro: true;
  user: false;
  /** The service directory runsv supervises (`sv` is always given this full path). */
  dir: string;
  /** The symlink in {@link RUNSVDIR} that makes runsvdir supervise it. */
  link: string;
}

/** A service tend writes (`tend-<name>`). */
export interface TendLayout {
  distro: false;
  /** A user service, scanned by the user's own runsvdir (`tend-runsvdir-<user>`). */
  user: boolean;
  dir: string;
  /** The link in {@link RUNSVDIR}; none for a user service, whose directory is in the scanned dir. */
  link?: string;
  /** Where svlogd keeps the service's output. */
  logDir: string;
}

/** The name of tend's service directory for a service name (`tend-web`). */
export function tendServiceName(name: string): string {
  return `tend-${name}`;
}

/**
 * The home a user service lives under: the scope's user (from the password database), or the
 * host facts' user when a user service is rendered outside a user scope (`tend render`).
 */
function userHome(ctx: RenderContext): string {
  return ctx.scope.kind === "user" ? ctx.scope.home : ctx.host.home;
}

export function serviceLayout(service: Service, ctx: RenderContext): ServiceLayout {
  if (service.exec === undefined) {
    return { distro: true, user: false, dir: `${SV_ROOT}/${service.name}`, link: `${RUNSVDIR}/${service.name}` };
  }
  const name = tendServiceName(service.name);
  if (service.user === true) {
    const home = userHome(ctx);
    return { distro: false, user: true, dir: `${home}/.local/service/${name}`, logDir: `${home}/.local/state/tend/log/${name}` };
  }
  return { distro: false, user: false, dir: `${SV_ROOT}/${name}`, link: `${RUNSVDIR}/${name}`, logDir: `/var/log/${name}` };
}
