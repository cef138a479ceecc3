/**
 * An environment value every init must hand to the program exactly as written: quotes, `$(…)`,
 * backticks, `%`, a systemd specifier, `$HOME`, a backslash and two spaces in a row. None of it
 * may run in the shell that starts the program; a `$(touch /tmp/pwned)` that ran leaves /tmp/pwned.
 */
export const GREETING = "it's $(touch /tmp/pwned) `id` \"q\" 100% %n $HOME back\\slash  two  spaces";
