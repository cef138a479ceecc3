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

/**
 * Every folder a scope's manager reads units and drop-ins from, highest priority first, as
 * `systemd-analyze [--user] unit-paths` lists them (systemd 252; a user's runtime folder is
 * `/run/user/UID`), and the index of the one tend writes units to: a unit of the same name in a
 * folder before it is loaded instead of tend's.
 */
export function unitSearchPath(scope: Scope): { folders: string[]; own: number } {
  if (scope.kind === "user") {
    const runtime = `/run/user/${scope.uid}/systemd`;
    const config = `${scope.home}/.config/systemd`;
    return {
      folders: [
        `${config}/user.control`,
        `${runtime}/user.control`,
        `${runtime}/transient`,
        `${runtime}/generator.early`,
        `${config}/user`,
        "/etc/xdg/systemd/user",
        "/etc/systemd/user",
        `${runtime}/user`,
        "/run/systemd/user",
        `${runtime}/generator`,
        `${scope.home}/.local/share/systemd/user`,
        "/usr/local/share/systemd/user",
        "/usr/share/systemd/user",
        "/usr/local/lib/systemd/user",
        "/usr/lib/systemd/user",
        `${runtime}/generator.late`,
      ],
      own: 4, // ~/.config/systemd/user
    };
  }
  // Debian lists /lib/systemd/system too; on a merged /usr it is /usr/lib's, read once here.
  return {
    folders: [
      "/etc/systemd/system.control",
      "/run/systemd/system.control",
      "/run/systemd/transient",
      "/run/systemd/generator.early",
      "/etc/systemd/system",
      "/etc/systemd/system.attached",
      "/run/systemd/system",
      "/run/systemd/system.attached",
      "/run/systemd/generator",
      "/usr/local/lib/systemd/system",
      "/usr/lib/systemd/system",
      "/run/systemd/generator.late",
    ],
    own: 4, // /etc/systemd/system
  };
}
