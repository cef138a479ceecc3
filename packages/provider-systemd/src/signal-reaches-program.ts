import { parseExec } from "@tend/core/contract";

/**
 * Whether `ExecReload=/bin/kill -s SIG $MAINPID` reaches the program `exec` names. systemd's main
 * process is the program for a simple command, and for shell syntax whose last command the core
 * `exec`s (or the script `exec`s itself). Otherwise `/bin/sh` stays in front as the main process
 * (a pipeline, a command run in the background, a builtin last): the signal would reach the
 * shell, which dies of it, and the unit ends or restarts instead of reloading. A script that
 * traps the signal itself is the program, and handles it.
 */
export function signalReachesProgram(exec: string, signal: string): boolean {
  const line = parseExec(exec);
  if (line.kind === "argv" || line.argv[2] !== line.script) return true;
  const unquoted = line.script.replace(/'[^']*'|"(?:\\.|[^"\\])*"/g, "''");
  if (/(?:^|;|&&|\|\||\n)\s*exec\s+[^;&|\n]+$/.test(unquoted.trim())) return true;
  return new RegExp(`\\btrap\\b[^;&|\\n]*\\s(?:SIG)?${signal}\\b`).test(unquoted);
}
