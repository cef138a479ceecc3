import type { RenderContext, Scope, Service, Timer } from "@tend/core/contract";

/** Where tend writes a resource's units: `/etc/systemd/system`, or `~/.config/systemd/user`. */
export function unitDirectory(resource: Service | Timer, ctx: RenderContext): string {
  if (!resource.user) return "/etc/systemd/system";
  const home = ctx.scope.kind === "user" ? ctx.scope.home : ctx.host.home;
  return `${home}/.config/systemd/user`;
}

/**
 * The folders a scope's manager loads units from that apply may write to (tend's own units, or a
 * `file` resource holding a unit or drop-in): a change below one needs a `daemon-reload`.
 */
export function managerDirectories(scope: Scope): string[] {
  if (scope.kind === "user") return [`${scope.home}/.config/systemd/user`, `${scope.home}/.local/share/systemd/user`];
  return ["/etc/systemd/system", "/run/systemd/system", "/usr/local/lib/systemd/system", "/usr/lib/systemd/system", "/lib/systemd/system"];
}

/** Every folder a user manager reads units from, highest priority first (for offline lookups). */
export function userUnitSearchPath(home: string): string[] {
  return [
    `${home}/.config/systemd/user`,
    "/etc/systemd/user",
    `${home}/.local/share/systemd/user`,
    "/usr/local/lib/systemd/user",
    "/usr/lib/systemd/user",
    "/lib/systemd/user",
  ];
}
