import { MANAGED_HEADER, type RenderContext, type Service } from "@tend/core/contract";
import { afterServices, dependencyChecks } from "./after-dependencies.js";
import { endGroupLines } from "./process-group.js";

/**
 * `./finish`, which runsv runs after `./run` ends with the exit code as `$1` (`-1` when killed)
 * and the service directory as its working directory. Every policy first ends what is left of
 * the program's process group. `"always"` then lets runsv run it again (runit's default); `"no"`
 * stops the service after a run, `"on_failure"` after a run that exited 0.
 *
 * Under `"no"`, an exit of `./run` while it waits for a service it runs after is not the
 * program's end: the same checks tell the two apart and let runsv try again.
 */
export function renderFinishScript(service: Service, ctx: RenderContext): string {
  const restart = service.restart ?? "no";
  if (restart === "no" && afterServices(service).length > 0) return finishScript(service, ctx);
  // Otherwise it depends on `restart` alone: made once each, a big spec's services share one string.
  let script = byRestart.get(restart);
  if (script === undefined) byRestart.set(restart, (script = finishScript(service, ctx)));
  return script;
}

const byRestart = new Map<string, string>();

function finishScript(service: Service, ctx: RenderContext): string {
  const restart = service.restart ?? "no";
  const lines = ["#!/bin/sh", MANAGED_HEADER, ...endGroupLines()];
  if (restart === "always") {
    lines.push('# restart = "always": runsv runs ./run again');
  } else if (restart === "on_failure") {
    lines.push('# restart = "on_failure": stop after a clean exit, let runsv restart it otherwise', '[ "$1" = 0 ] && exec sv down .', "exit 0");
  } else {
    lines.push('# restart = "no": stop once the program ends');
    if (afterServices(service).length > 0) {
      lines.push("# unless ./run only waited for a service it runs after: then runsv tries again", ...dependencyChecks(service, ctx, "exit 0"));
    }
    lines.push("exec sv down .");
  }
  return `${lines.join("\n")}\n`;
}
