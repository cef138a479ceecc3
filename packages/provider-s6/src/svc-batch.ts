import { errors, shellQuote, type ApplyContext, type Command } from "@tend/core/contract";

/** One service directory a batched s6-svc acts on, and the resource it belongs to. */
export interface SvcTarget {
  key: string;
  dir: string;
}

/** How long `s6-svc -w…` waits for one service (s6-svc's `-T`), and what the batch adds on top. */
export const SVC_WAIT_MS = 20_000;
const SLACK_MS = 15_000;

/**
 * One command that runs `s6-svc OPTIONS -- DIR` for many service directories at once: s6-svc
 * takes one directory per run, so a shell runs them side by side (a wait for one service does
 * not hold up the others) and prints one line each, `ok DIR` or `failed CODE DIR MESSAGE`. The
 * options are tend's own constants; the directories are arguments, never spliced into the script.
 */
export function svcBatchCommand(options: string[], dirs: string[]): Command {
  const svc = ["s6-svc", ...options].map(shellQuote).join(" ");
  const script = [
    'for d in "$@"; do',
    `( if out=$(${svc} -- "$d" 2>&1); then echo "ok $d"; else code=$?; printf 'failed %s %s %s\\n' "$code" "$d" "$(printf '%s' "$out" | tr '\\n' ' ')"; fi ) &`,
    "done",
    "wait",
  ].join("\n");
  const waits = options.some((option) => option.startsWith("-w"));
  return { argv: ["/bin/sh", "-c", script, "sh", ...dirs], timeoutMs: (waits ? SVC_WAIT_MS : 0) + SLACK_MS };
}

/**
 * Runs {@link svcBatchCommand} and pins each failure on its resource by the line s6-svc's run
 * printed for its directory (a directory with no line, as when the shell was killed, failed
 * too). Resolves with the failures by resource key; an empty batch runs nothing.
 */
export async function svcBatch(ctx: ApplyContext, options: string[], targets: SvcTarget[]): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  if (targets.length === 0) return failures;
  const command = svcBatchCommand(options, targets.map((t) => t.dir));
  let output: string;
  try {
    output = (await ctx.run.run(command)).stdout;
  } catch (error) {
    for (const target of targets) failures.set(target.key, error);
    return failures;
  }
  const answers = parseSvcBatch(output);
  for (const target of targets) {
    const answer = answers.get(target.dir);
    if (answer?.ok) continue;
    const argv = ["s6-svc", ...options, "--", target.dir];
    failures.set(target.key, answer ? errors.commandFailed(argv, answer.exitCode, answer.message) : errors.commandFailed(argv, undefined, "s6-svc gave no answer"));
  }
  return failures;
}

type SvcAnswer = { ok: true } | { ok: false; exitCode: number; message: string };

/** The lines of {@link svcBatchCommand}'s output, by directory. */
export function parseSvcBatch(output: string): Map<string, SvcAnswer> {
  const answers = new Map<string, SvcAnswer>();
  for (const line of output.split("\n")) {
    const ok = /^ok (\S+)$/.exec(line);
    if (ok) {
      answers.set(ok[1]!, { ok: true });
      continue;
    }
    const failed = /^failed (\d+) (\S+) ?(.*)$/.exec(line);
    if (failed) answers.set(failed[2]!, { ok: false, exitCode: Number(failed[1]), message: failed[3]!.trim() });
  }
  return answers;
}
