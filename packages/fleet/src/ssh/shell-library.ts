/** Single-quoted for sh, byte for byte. */
export function q(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * sh functions (and constants) that scripts call. A long-lived shell session loads one once, in
 * its own shell, and runs each script in a subshell of it; a shell started for one script (sudo,
 * or input no session can carry) reads it first. Either way the variable `name` holds the text,
 * so that a script can hand the library on to another shell (as another user, say). Its functions
 * stay defined in the session's shell: the commands that run there start with a program's name
 * (`env`, `sudo`, `/bin/sh`), never one of a library's functions.
 */
export interface ShellLibrary {
  /** The sh variable that holds the text (and the key a session remembers it by). */
  name: string;
  text: string;
}

/** The sh text that loads `library` into the shell reading it: its text in its variable, then evaluated (stdin closed to it: the shell's own input goes on after it). */
export function loadLibrary(library: ShellLibrary): string {
  return `{ ${library.name}=${q(library.text)}\neval "$${library.name}"\n} </dev/null\n`;
}

/** `script` for a shell of its own: the library loaded first (when there is one). */
export function withLibrary(script: string, library?: ShellLibrary): string {
  return library ? `${loadLibrary(library)}${script}` : script;
}
