import type * as ChildProcesses from "node:child_process";
import { createRequire } from "node:module";

let loaded: typeof ChildProcesses | undefined;

/**
 * Node's `child_process`, loaded when a process is first started: it brings `net`, `dgram`,
 * streams and their bindings (~6 ms of a start), which a run that starts no process (a plan on a
 * runit host, `validate`, `--help`) never uses.
 */
export function childProcesses(): typeof ChildProcesses {
  return (loaded ??= createRequire(import.meta.url)("node:child_process") as typeof ChildProcesses);
}
