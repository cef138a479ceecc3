import type { BootPrediction, ReadContext, Scope } from "@tend/core/contract";

/** Debian's path, and systemd's default (`loginctl enable-linger` creates the file). */
export const LINGER_DIR = "/var/lib/systemd/linger";

/**
 * Whether the user's manager starts at boot: with linger, systemd starts `user@UID` at boot;
 * without it, only a login does. Undefined in the system scope. One file test, no process.
 */
export async function readLinger(ctx: ReadContext): Promise<boolean | undefined> {
  if (ctx.scope.kind !== "user") return undefined;
  return ctx.files.exists(`${LINGER_DIR}/${ctx.scope.user}`);
}

/**
 * Boot truth from the unit file state systemd already reported (and, for a user unit, linger):
 * `enabled` starts at boot (in a user scope, only with linger); `enabled-runtime` links live
 * under /run and are gone after a reboot; `disabled`, `linked` and `masked` do not start. Other
 * states (`static`, `indirect`, `generated`, `alias`) start only when something else pulls them
 * in: systemd cannot tell without walking every dependency, so no prediction.
 */
export function predictBoot(unitFileState: string | undefined, scope: Scope, linger: boolean | undefined): BootPrediction | undefined {
  switch (unitFileState) {
    case "enabled":
      if (scope.kind === "user" && linger === false) {
        return { starts: false, why: `${scope.user} has no linger, so ${scope.user}'s manager starts only when ${scope.user} logs in (loginctl enable-linger ${scope.user})` };
      }
      return { starts: true };
    case "enabled-runtime":
      return { starts: false, why: "it is enabled only until the next reboot (enabled-runtime)" };
    case "disabled":
    case "linked":
    case "linked-runtime":
    case undefined:
      return { starts: false, why: "it is not enabled" };
    case "masked":
    case "masked-runtime":
      return { starts: false, why: `it is ${unitFileState}` };
    default:
      return undefined;
  }
}
