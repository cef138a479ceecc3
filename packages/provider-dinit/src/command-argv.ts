import { parseExec } from "@tend/core/contract";

/**
 * A script for `/bin/sh -c SCRIPT PROGRAM ARGS…` that replaces the shell with PROGRAM ARGS,
 * passed as they are: sh takes them as `$0` and `$@`, so nothing in them is read as shell syntax.
 */
const EXEC_ARGUMENTS = 'exec "$0" "$@"';

/**
 * The argument list a service runs as, which dinit execs itself (`command`): parseExec's argv —
 * a simple command as its own words, a bare name through `/usr/bin/env` (dinit does not search
 * PATH), shell syntax through one `/bin/sh -c` — so the program written in `exec` is the process
 * dinit supervises and signals. `env` becomes leading `/usr/bin/env NAME=value` assignments
 * (sorted by name, so reordering a spec's map does not restart the service); env then execs the
 * program in its own place, so the pid stays the program's.
 */
export function commandArgv(exec: string, env: Record<string, string> = {}): string[] {
  const assignments = Object.keys(env)
    .sort()
    .map((name) => `${name}=${env[name]}`);
  const line = parseExec(exec);
  if (assignments.length === 0) return line.argv;
  if (line.kind === "argv" && line.argv[0] === "/usr/bin/env") {
    return ["/usr/bin/env", ...assignments, ...line.argv.slice(1)];
  }
  // env reads every leading word holding `=` as an assignment, and takes no `--` to stop, so a
  // program path such as `/opt/a=b/run` would be swallowed. sh hands it over instead, as `$0`,
  // and execs it: the program still replaces every process before it.
  if (line.kind === "argv" && line.argv[0]!.includes("=")) {
    return ["/usr/bin/env", ...assignments, "/bin/sh", "-c", EXEC_ARGUMENTS, ...line.argv];
  }
  return ["/usr/bin/env", ...assignments, ...line.argv];
}
