import { TendError, type Scope } from "@tend/core/contract";

/** What systemctl says when no manager listens where it looks (its bus socket is missing). */
const NO_BUS = /Failed to connect to (?:user scope )?bus[^\n]*/;

/**
 * A user scope's `systemctl --user` that found no manager to talk to, as the error it is: the
 * user's manager runs only while the user has a session, or with linger. Any other error, or one
 * of the system scope, is returned as it is.
 */
export function asNoUserManager(error: unknown, scope: Scope): unknown {
  if (scope.kind !== "user" || !TendError.isInstance(error) || error.code !== "TEND_COMMAND_FAILED") return error;
  const said = NO_BUS.exec(error.message)?.[0];
  if (!said) return error;
  return new TendError("TEND_SYSTEMD_NO_USER_MANAGER", `${scope.user}'s systemd user manager is not running, so tend can neither see nor start ${scope.user}'s units (systemctl --user: ${said})`, {
    hint: `As root, \`loginctl enable-linger ${scope.user}\` starts it now and at every boot, or run tend in a login session of ${scope.user}'s`,
    cause: error,
  });
}
