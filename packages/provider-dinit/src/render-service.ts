import { MANAGED_HEADER, type Artifact, type RenderContext, type Service } from "@tend/core/contract";
import { commandArgv } from "./command-argv.js";
import { quoteDinitToken } from "./quote-dinit-token.js";
import { descriptionDir, logFile } from "./service-paths.js";

const RESTART = { no: "false", on_failure: "on-failure", always: "true" } as const;

/**
 * A tend service's dinit description, `/etc/dinit.d/tend-<name>` or
 * `~/.config/dinit.d/tend-<name>`. A service without `exec` is the distro's own: nothing to write.
 */
export function renderService(service: Service, ctx: RenderContext): Artifact[] {
  if (service.exec === undefined) return [];
  const lines = [MANAGED_HEADER];
  // dinit has no description setting; a comment keeps it with the service.
  if (service.description) lines.push(`# description: ${service.description}`);
  lines.push("type = process");
  lines.push(`command = ${commandArgv(service.exec, service.env).map(quoteDinitToken).join(" ")}`);
  // Always written: dinit's built-in default is a build option, `true` unless configured otherwise.
  lines.push(`restart = ${RESTART[service.restart ?? "no"]}`);
  for (const dependency of dependencies(service, ctx)) lines.push(`depends-on = ${quoteDinitToken(dependency)}`);
  lines.push(`logfile = ${quoteDinitToken(logFile(service, ctx.scope))}`);
  return [{ path: `${descriptionDir(ctx.scope)}/tend-${service.name}`, content: `${lines.join("\n")}\n`, mode: 0o644 }];
}

/**
 * `after` as dinit dependencies: `network` for a system service (a user dinit has none),
 * `tend-<name>` for another tend service. `*.target` entries never get here: the core refuses
 * them on every init but systemd.
 */
export function dependencies(service: Service, ctx: RenderContext): string[] {
  const names = (service.after ?? []).flatMap((entry) => {
    if (entry === "network") return ctx.scope.kind === "user" ? [] : ["network"];
    return [`tend-${entry}`];
  });
  return [...new Set(names)];
}
