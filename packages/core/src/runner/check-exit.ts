import type { Command, CommandResult } from "../contract/runner.js";
import { errors } from "../errors/catalogue.js";

/** Throws TEND_COMMAND_FAILED when the exit code is not one the command accepts. */
export function checkExit(command: Command, result: CommandResult): CommandResult {
  const ok = command.okCodes ?? [0];
  if (ok === "any" || ok.includes(result.exitCode)) return result;
  const detail = (result.stderr.trim() || result.stdout.trim()).split("\n").slice(-5).join("\n");
  throw errors.commandFailed(command.argv, result.exitCode, detail);
}
