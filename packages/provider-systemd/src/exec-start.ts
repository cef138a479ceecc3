import { parseExec } from "@tend/core/contract";
import { quoteCommandLine } from "./quote-command-line.js";

/**
 * An `exec` line as an `ExecStart=` value: a bare command through `/usr/bin/env` (systemd does
 * not search PATH the way a shell does), shell syntax through `/bin/sh -c` (see parseExec).
 */
export function execStart(exec: string): string {
  return quoteCommandLine(parseExec(exec).argv);
}
