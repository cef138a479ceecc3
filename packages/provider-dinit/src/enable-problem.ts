import type { Scope, TendError } from "@tend/core/contract";
import { dinitErrors } from "./dinit-errors.js";
import type { EnableLink } from "./resolve-enable-link.js";
import { serviceDirs } from "./service-dirs.js";

/** Why a service cannot be enabled on this host, or undefined when it can (or is for good). */
export function enableProblem(ref: string, name: string, link: EnableLink, scope: Scope): TendError | undefined {
  switch (link.kind) {
    case "no-via-service":
      return dinitErrors.noViaService(ref, name, link.via, serviceDirs(scope));
    case "no-waits-for-d":
      return dinitErrors.noWaitsForD(ref, name, link.via, link.viaFile);
    case "link":
      return link.dirExists ? undefined : dinitErrors.waitsForDMissing(ref, name, link.dir, link.viaFile);
    case "fixed":
      return undefined;
  }
}
