import { accessSync, constants, statSync } from "node:fs";
import { join } from "node:path";

/**
 * While a lock names the commands tend runs (see command-groups.ts), each command is started
 * through this gate: `/bin/sh` waits on descriptor 3 until tend has named its process group in
 * the lock file, then becomes the program (same pid, so the same group; descriptor 3 closed). A
 * tend killed between starting a command and naming it closes the descriptor, and the gate exits
 * without running anything: no command of an apply can outlive it unnamed and undo what the next
 * apply does after it looked at the host.
 */
const GATE_SCRIPT = 'IFS= read -r go <&3 || exit 125; exec "$@" 3<&-';

/**
 * The argv of the gate for `file args…`: the shell's own name, then the command as given. The
 * shell puts its working folder in PWD; a command given no PWD gets none, as it would directly.
 */
export function gatedArgs(file: string, args: readonly string[], env: Record<string, string>): string[] {
  const script = env.PWD === undefined ? GATE_SCRIPT.replace("exec ", "unset PWD; exec ") : GATE_SCRIPT;
  return ["-c", script, "tend-gate", file, ...args];
}

/**
 * Whether `file` names a program the gate's `exec` would find, as execvp looks (a name with a
 * slash as it is, else the first executable file on PATH): the gate cannot tell tend "not
 * installed" from the program's own exit code 127, so tend asks first.
 */
export function programFound(file: string, path: string | undefined): boolean {
  if (file.includes("/")) return executableFile(file);
  return (path ?? "").split(":").some((dir) => executableFile(join(dir === "" ? "." : dir, file)));
}

function executableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
