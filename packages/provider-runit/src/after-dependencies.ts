import { afterServices, shellQuote, type RenderContext, type Service } from "@tend/core/contract";
import { serviceLayout } from "./service-layout.js";

/** `after` entries runit orders on: other tend services (core's afterServices). `network` is ignored; targets fail plan. */
export { afterServices };

/**
 * Shell lines that end a script with `onFailure` unless every service this one runs after is up:
 * `sv status` must say `run:` (`sv check` alone passes for a service that is down), then
 * `sv check` must pass, which runs the dependency's own `./check` when it has one. Full paths,
 * because sv looks bare names up in $SVDIR, which differs between the system and a user runsvdir.
 */
export function dependencyChecks(service: Service, ctx: RenderContext, onFailure: "exit 0" | "exit 1"): string[] {
  return afterServices(service).flatMap((name) => {
    const dependency: Service = { type: "service", name, exec: name, ...(service.user ? { user: true } : {}) };
    const dir = shellQuote(serviceLayout(dependency, ctx).dir);
    return [`case $(sv status ${dir}) in run:*) ;; *) ${onFailure} ;; esac`, `sv check ${dir} >/dev/null || ${onFailure}`];
  });
}
