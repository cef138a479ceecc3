import { parseExec } from "@tend/core/contract";

/**
 * The argument list a service runs as. dinit wants a program and arguments, not a shell line:
 * a bare name goes through `/usr/bin/env` (dinit does not search PATH), shell syntax through
 * `/bin/sh -c`, and `env` becomes leading `/usr/bin/env NAME=value` assignments (sorted by name,
 * so reordering a spec's map does not restart the service).
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
  // env reads every leading word holding `=` as an assignment; a program path such as
  // `/opt/a=b/run` would be swallowed, so such a line runs through the shell instead.
  const argv = line.kind === "argv" && line.argv[0]!.includes("=") ? ["/bin/sh", "-c", exec] : line.argv;
  return ["/usr/bin/env", ...assignments, ...argv];
}
