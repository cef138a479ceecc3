import { argumentSizeProblem } from "./argument-limit.js";
import { endsInExec, execLastCommand, shellWords } from "./shell-words.js";

/**
 * How an `exec` line runs on an init that wants an argument list, so that the program an admin
 * writes is the process the init supervises and signals:
 * - a simple command, quotes and backslashes included (`nginx -g "daemon off;"`,
 *   `/bin/sh -c 'trap … HUP; while :; do sleep 1; done'`), is split into its arguments exactly as
 *   sh would and run directly; a bare name is looked up on PATH through `/usr/bin/env` (inits
 *   do not search PATH), which execs the program in its own place;
 * - real shell syntax (pipes, redirects, `$VAR`, globs, `~`, lists) runs through one
 *   `/bin/sh -c` whose last command is `exec`ed where that keeps the script's meaning.
 */
export type ExecLine =
  | { kind: "argv"; argv: string[] }
  | { kind: "shell"; script: string; argv: ["/bin/sh", "-c", string] };

export function parseExec(exec: string): ExecLine {
  return execLineOf(exec, shellWords(exec.trim()));
}

function execLineOf(exec: string, read: ReturnType<typeof shellWords>): ExecLine {
  if (read.kind !== "words") {
    const script = exec.trim();
    return { kind: "shell", script, argv: ["/bin/sh", "-c", execLastCommand(script)] };
  }
  const [first, ...rest] = read.words;
  return { kind: "argv", argv: first!.includes("/") ? read.words : ["/usr/bin/env", first!, ...rest] };
}

/**
 * Whether /bin/sh stays between the init and the program, so that the signals the init sends
 * reach the shell instead: shell syntax whose last command is not exec'd, by parseExec or as
 * written (a pipeline, a background job, a script that ends in a builtin or sets traps).
 */
export function shellStaysInFront(exec: string): boolean {
  const line = parseExec(exec);
  return line.kind === "shell" && line.argv[2] === line.script && !endsInExec(line.script);
}

/**
 * Whether a signal sent to the process an init supervises for `exec` reaches the program: yes
 * for a simple command and for shell syntax whose last command the shell `exec`s; for a shell
 * left in front (a pipeline, a background job, a builtin or compound command last), only when
 * its script traps that signal itself and so is the program. Otherwise the shell would die of
 * the signal and the init restart it: a reload would become a restart.
 */
export function signalReachesProgram(exec: string, signal: string): boolean {
  if (!shellStaysInFront(exec)) return true;
  return new RegExp(`(^|[;&|(){}\\s])trap\\s[^\\n]*\\b(SIG)?${signal}\\b`).test(exec);
}

/** Why an exec line cannot run the same on every init, or undefined when it can. */
export function execProblem(exec: string): string | undefined {
  const read = shellWords(exec.trim());
  if (read.kind === "error") return read.why;
  const first = read.kind === "words" ? read.words[0]! : (exec.trim().split(/[ \t]+/)[0] ?? "");
  if (first.includes("/") && !first.startsWith("/")) {
    return `\`${first}\` is a relative path, which each init resolves from another folder; use an absolute path, or a bare command name looked up on PATH`;
  }
  const line = execLineOf(exec, read);
  if (line.kind === "shell") return argumentSizeProblem("its script, which `/bin/sh -c` gets as one argument,", line.argv[2]);
  for (const word of line.argv) {
    const problem = argumentSizeProblem("an argument", word);
    if (problem) return problem;
  }
  return undefined;
}
