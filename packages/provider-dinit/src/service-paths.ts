import type { Scope, Service } from "@tend/core/contract";

/** The dinit service name: `tend-<name>` for a service tend writes, the distro's name otherwise. */
export function dinitName(service: Service): string {
  return service.exec === undefined ? service.name : `tend-${service.name}`;
}

/**
 * The description file dinit loads for a name. A name `base@arg` is the description `base`
 * started with the argument `arg` (dinit's service arguments).
 */
export function descriptionName(name: string): string {
  const at = name.indexOf("@");
  return at === -1 ? name : name.slice(0, at);
}

/** Where tend writes a service's description: the first folder dinit searches for the scope. */
export function descriptionDir(scope: Scope): string {
  return scope.kind === "user" ? `${scope.home}/.config/dinit.d` : "/etc/dinit.d";
}

/**
 * Where a tend service's output goes. dinit discards it unless told otherwise (`log-type` defaults
 * to `none`); a file keeps it for the operator and for the lines shown when verification fails.
 */
export function logFile(service: Service, scope: Scope): string {
  return scope.kind === "user"
    ? `${scope.home}/.local/state/tend/log/tend-${service.name}.log`
    : `/var/log/tend-${service.name}.log`;
}
