import { errors, type ApplyContext, type CommandResult } from "@tend/core/contract";
import type { Dinitctl } from "./dinitctl.js";

/** dinitctl's answers when it cannot load a service at all, which therefore is not running. */
export const UNLOADABLE = "failed to find service description|error in service description|error loading service";

/** Starting waits for the service to come up (and for its readiness, when declared): dinit's start-timeout is 60 s. */
export const START_TIMEOUT_MS = 90_000;

/**
 * Runs a dinitctl command that may exit 1 for a reason that counts as done (`service already
 * enabled.`, `service not loaded.`); any other failure throws with dinitctl's own words.
 */
export async function runDinitctl(
  ctx: ApplyContext,
  dinitctl: Dinitctl,
  args: string[],
  options: { benign?: RegExp; timeoutMs?: number } = {},
): Promise<CommandResult & { benign: boolean }> {
  const command = dinitctl.command(args, { okCodes: "any", timeoutMs: options.timeoutMs ?? 60_000 });
  const result = await ctx.run.run(command);
  if (result.exitCode === 0) return { ...result, benign: false };
  const said = `${result.stderr}\n${result.stdout}`;
  if (result.exitCode === 1 && options.benign?.test(said)) return { ...result, benign: true };
  throw errors.commandFailed(command.argv, result.exitCode, said.trim().split("\n").slice(-5).join("\n"));
}
