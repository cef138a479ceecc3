import { MANAGED_HEADER, type Service } from "@tend/core/contract";
import { endSessionLines } from "./process-session.js";

/**
 * The longrun's `finish` script. s6-supervise runs it after the program ended, with the exit code
 * as `$1` (256 when a signal killed it), and waits for it before running `./run` again or
 * reporting the service down. Every policy first ends what is left of the program's session;
 * then the seed's restart table: `"always"` lets s6-supervise respawn it (s6's default), `"no"`
 * and `"on_failure"` after a clean exit leave it down (exit code 125 tells s6-supervise so).
 */
export function renderFinishScript(service: Service): string {
  const lines = ["#!/bin/sh", MANAGED_HEADER, ...endSessionLines()];
  switch (service.restart ?? "no") {
    case "always":
      lines.push('# restart = "always": s6-supervise runs ./run again');
      break;
    case "on_failure":
      lines.push('# restart = "on_failure": stay down after a clean exit', '[ "$1" = 0 ] && exit 125', "exit 0");
      break;
    case "no":
      lines.push('# restart = "no": stay down once the program ends', "exit 125");
      break;
  }
  return `${lines.join("\n")}\n`;
}
