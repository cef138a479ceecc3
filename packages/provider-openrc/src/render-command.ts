import { parseExec, shellQuote } from "@tend/core";

/**
 * The `command` lines of an init script. openrc-run runs `eval … $command -- $command_args`, so
 * `command_args` is split, globbed and then parsed as shell once more before the program sees it.
 * A plain argument list survives that as written. Anything else (shell syntax, or a word that
 * would need quoting) runs through `/bin/sh -c`, with the script kept in its own variable that
 * the eval expands inside double quotes: it reaches `sh` byte for byte, nothing in it split,
 * globbed or run early. (`command_args="-c '<script>'"` would glob a `*` in the script against
 * the files in openrc-run's working directory.)
 */
export function renderCommand(exec: string): string[] {
  const line = parseExec(exec);
  if (line.kind === "argv" && line.argv.every(isPlainWord)) {
    const [program, ...args] = line.argv;
    return args.length === 0 ? [`command=${program}`] : [`command=${program}`, `command_args="${args.join(" ")}"`];
  }
  return [
    "command=/bin/sh",
    "# openrc-run evaluates command_args again: the script stays in tend_exec so that none of it is expanded early",
    `tend_exec=${shellQuote(exec)}`,
    `command_args='-c "$tend_exec"'`,
  ];
}

/** A word that means the same to the shell however often it is evaluated. */
function isPlainWord(word: string): boolean {
  return shellQuote(word) === word;
}
