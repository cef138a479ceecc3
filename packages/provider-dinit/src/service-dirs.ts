import type { Scope } from "@tend/core/contract";

/**
 * The folders dinit searches for service descriptions, first match wins (dinit(8),
 * options-processing.cc). `/usr/lib/dinit.d` is added for distros that install there without a
 * `/lib` symlink. `$XDG_CONFIG_HOME` is not known here; tend writes user services to
 * `~/.config/dinit.d`, which dinit searches either way.
 */
export function serviceDirs(scope: Scope): string[] {
  if (scope.kind === "user") {
    return [`${scope.home}/.config/dinit.d`, "/etc/dinit.d/user", "/usr/lib/dinit.d/user", "/usr/local/lib/dinit.d/user"];
  }
  return ["/etc/dinit.d", "/run/dinit.d", "/usr/local/lib/dinit.d", "/lib/dinit.d", "/usr/lib/dinit.d"];
}
