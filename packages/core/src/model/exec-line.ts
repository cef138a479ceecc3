/**
 * How an `exec` line runs on an init that wants an argument list: a plain command is split on
 * spaces (a bare name looked up on PATH through `/usr/bin/env`, since inits do not search PATH);
 * anything using shell syntax runs through `/bin/sh -c`.
 */
export type ExecLine =
  | { kind: "argv"; argv: string[] }
  | { kind: "shell"; script: string; argv: ["/bin/sh", "-c", string] };

/** Characters that make a line shell syntax: pipes, redirects, `$`, globs, `~`, quotes, … */
const SHELL_SYNTAX = /[|&;<>()$`\\"'*?[\]#~{}!]/;

export function parseExec(exec: string): ExecLine {
  const words = exec.trim().split(/[ \t]+/).filter(Boolean);
  const assignsFirst = words[0] !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]);
  if (SHELL_SYNTAX.test(exec) || assignsFirst || words.length === 0) {
    return { kind: "shell", script: exec, argv: ["/bin/sh", "-c", exec] };
  }
  const argv = words[0]!.includes("/") ? words : ["/usr/bin/env", ...words];
  return { kind: "argv", argv };
}
