import type { Command } from "@tend/core/contract";

/** The s6-svstat fields tend reads, in the order it asks for them. */
export const SVSTAT_FIELDS = ["up", "wantedup", "normallyup", "ready", "pid", "exitcode", "signal", "updownsince", "updownfor"] as const;

/**
 * One shell loop that runs `s6-svstat -o …` on every given service directory and prints one line
 * each: the directory, then the fields, or `failed <exit code>` when s6-svstat failed (1: no
 * s6-supervise runs there). s6-svstat reads one service directory per run, so this is the one
 * command observation and probing need however many services there are; the directories are
 * passed as arguments, never spliced into the script.
 */
const SCRIPT = [
  'for d in "$@"; do',
  `printf '%s ' "$d";`,
  `s6-svstat -o ${SVSTAT_FIELDS.join(",")} -- "$d" 2>/dev/null || echo "failed $?";`,
  "done",
].join(" ");

export function svstatBatchCommand(dirs: string[]): Command {
  return { argv: ["/bin/sh", "-c", SCRIPT, "sh", ...dirs], timeoutMs: 30_000 };
}
