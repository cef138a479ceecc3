import type { BootPrediction, Scope } from "@tend/core/contract";
import type { EnableLink } from "./resolve-enable-link.js";

/**
 * Boot truth on dinit, from the enable link already resolved: at boot dinit starts `boot`, which
 * waits for what its `waits-for.d` links and what it names itself. A service enabled from another
 * service starts only when that one does, and a user instance starts with its user's session, not
 * with the host: no prediction for either.
 */
export function predictBoot(link: EnableLink, linked: boolean, scope: Scope): BootPrediction | undefined {
  if (scope.kind === "user" || link.via !== "boot") return undefined;
  switch (link.kind) {
    case "fixed":
      return { starts: true, why: `${link.viaFile} names it as a dependency` };
    case "link":
      return linked ? { starts: true } : { starts: false, why: `boot does not wait for it (no link ${link.path})` };
    case "no-waits-for-d":
      return { starts: false, why: `boot does not wait for it (${link.viaFile} has no waits-for.d)` };
    case "no-via-service":
      return undefined;
  }
}
