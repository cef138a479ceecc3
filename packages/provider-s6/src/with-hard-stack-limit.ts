/**
 * The shell that runs a program with the soft limit of its stack raised to the hard one (which
 * is unlimited on most hosts; raising a soft limit needs no privilege). `$0` is the program, so
 * it keeps its own name in `ps`, and the shell execs it: its exit and its signals are the
 * program's own.
 */
export const HARD_STACK_LIMIT_SCRIPT = 'ulimit -S -s "$(ulimit -H -s)" 2>/dev/null; exec "$0" "$@"';

/** `argv` run by /bin/sh with the soft stack limit raised to the hard one. */
export function withHardStackLimit(argv: readonly string[]): string[] {
  return ["sh", "-c", HARD_STACK_LIMIT_SCRIPT, ...argv];
}
