import { TendError, type CommandResult, type ReadContext } from "@tend/core/contract";
import { dinitctlFor } from "./dinitctl.js";
import { parseDinitList, type ListedService } from "./parse-dinit-list.js";

/** `dinitctl list` for the scope, or why dinit could not be asked. */
export type ListResult = { ok: true; services: Map<string, ListedService> } | { ok: false; why: string };

/** One `dinitctl list`: the batch query behind observe and probe (loaded services only). */
export async function listServices(ctx: ReadContext): Promise<ListResult> {
  const dinitctl = await dinitctlFor(ctx.scope, ctx.files);
  let result: CommandResult;
  try {
    result = await ctx.run.run(dinitctl.command(["list"], { okCodes: "any", timeoutMs: 30_000 }));
  } catch (error) {
    // dinitctl missing or hung: the same answer as a dinit that is not running.
    if (TendError.isInstance(error)) return { ok: false, why: error.message };
    throw error;
  }
  if (result.exitCode !== 0) {
    const why = (result.stderr.trim() || result.stdout.trim() || `dinitctl exited ${result.exitCode}`).split("\n")[0]!;
    return { ok: false, why };
  }
  return { ok: true, services: parseDinitList(result.stdout) };
}
