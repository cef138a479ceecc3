import { parseExec, type Signal } from "@tend/core/contract";

/**
 * Why `sv` would deliver a signal to a shell instead of the program, or undefined when the pid
 * runsv supervises is the program: a simple command (run directly), shell syntax whose last
 * command the shell `exec`s (core's parseExec adds the `exec`, or the admin wrote it), or a
 * script that traps the signal itself (the shell is then the program). Otherwise, in a pipeline,
 * a background job or a compound command last, the shell would die of the signal and runsv would
 * start it again: a restart, never the reload reloadOn asks for.
 */
export function signalMissesProgram(exec: string, signal: Signal): string | undefined {
  const line = parseExec(exec);
  if (line.kind === "argv" || line.argv[2] !== line.script) return undefined;
  if (endsInOwnExec(line.script) || trapsSignal(line.script, signal)) return undefined;
  return `\`exec\` is shell syntax that runs as \`/bin/sh -c\` without handing over to its last command (a pipeline, a background job or a compound command last), so sv would send ${signal} to that shell, which would end, and runsv would restart the service instead of reloading it`;
}

/** Whether the script already `exec`s its last command: core, given it without that `exec`, would put it back in the same place. */
function endsInOwnExec(script: string): boolean {
  const at = script.lastIndexOf("exec ");
  if (at < 0) return false;
  const line = parseExec(`${script.slice(0, at)}${script.slice(at + "exec ".length)}`);
  return line.kind === "shell" && line.argv[2] === script;
}

function trapsSignal(script: string, signal: Signal): boolean {
  return new RegExp(`(^|[;&|(){}\\s])trap\\s[^\\n]*\\b(SIG)?${signal}\\b`).test(script);
}
