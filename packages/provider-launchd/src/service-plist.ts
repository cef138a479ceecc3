import { errors, parseExec, type Service } from "@tend/core/contract";
import { jobLabel } from "./launchd-job.js";
import type { PlistDict } from "./serialize-plist.js";

/**
 * The plist dictionary of a service. `restart`: `"no"` runs it once at load (`RunAtLoad` only),
 * `"on_failure"` adds `KeepAlive = {SuccessfulExit = false}`, `"always"` `KeepAlive = true`.
 * `after` and `description` have no place in launchd and are left out, as the seed says. The
 * `launchd = {...}` keys are merged over the generated ones: a key set there replaces tend's
 * whole value (a `KeepAlive` dictionary replaces tend's, it is not merged into it).
 */
export function servicePlist(service: Service): PlistDict {
  if (service.exec === undefined) throw errors.noDistroUnits(`service:${service.name}`, "launchd");
  const generated: PlistDict = {
    Label: jobLabel(service.name),
    ProgramArguments: parseExec(service.exec).argv,
  };
  if (service.env && Object.keys(service.env).length > 0) generated.EnvironmentVariables = { ...service.env };
  generated.RunAtLoad = true;
  const restart = service.restart ?? "no";
  if (restart === "on_failure") generated.KeepAlive = { SuccessfulExit: false };
  if (restart === "always") generated.KeepAlive = true;
  return { ...generated, ...service.launchd };
}
