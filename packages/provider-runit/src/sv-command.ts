import type { ApplyContext, ReadContext } from "@tend/core";

/** sv exits with the number of directories it failed on (at most 99); 100 is a usage error. */
export const SV_ANSWERED = Array.from({ length: 100 }, (_, failed) => failed);

/**
 * Runs `sv ARGS… DIR` for one service directory, always by full path (sv looks bare names up in
 * $SVDIR). sv takes no `--`; a full path starts with `/`, so it can never read as an option.
 * `sv stop` and `sv restart` wait up to 7 s themselves, hence the longer deadline.
 */
export async function sv(ctx: ApplyContext | ReadContext, args: string[], dir: string, okCodes: number[] = [0]): Promise<{ exitCode: number; stdout: string }> {
  return ctx.run.run({ argv: ["sv", ...args, dir], okCodes, timeoutMs: 30_000 });
}
