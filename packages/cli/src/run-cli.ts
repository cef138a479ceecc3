import type { CliIo } from "./cli-io.js";
import { helpText } from "./help-text.js";
import { parseCommandLine, UsageError, type CommandLine } from "./parse-command-line.js";

const COMMANDS: Record<string, () => Promise<(line: CommandLine, io: CliIo) => Promise<number>>> = {
  plan: async () => (await import("./commands/plan-command.js")).planCommand,
  apply: async () => (await import("./commands/apply-command.js")).applyCommand,
  observe: async () => (await import("./commands/observe-command.js")).observeCommand,
  render: async () => (await import("./commands/render-command.js")).renderCommand,
  providers: async () => (await import("./commands/providers-command.js")).providersCommand,
  validate: async () => (await import("./commands/validate-command.js")).validateCommand,
};

/** Runs one command line; returns the exit code. The only place errors are printed. */
export async function runCli(argv: string[], io: CliIo, version: string): Promise<number> {
  let line: CommandLine;
  try {
    line = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`${io.paintErr.red("error")} TEND_USAGE: ${error.message}\n  ${io.paintErr.cyan("hint")} tend --help lists the commands and flags\n`);
    return 1;
  }
  if (line.version) {
    io.out(`tend ${version}\n`);
    return 0;
  }
  if (line.command === "help" || line.help) {
    io.out(helpText(line.command === "help" ? ((line.positionals[0] as CommandLine["command"]) ?? "help") : line.command));
    return 0;
  }
  try {
    const command = await COMMANDS[line.command]!();
    return await command(line, io);
  } catch (error) {
    const { formatError } = await import("@tend/core");
    io.err(formatError(error, io.paintErr));
    return 1;
  }
}
