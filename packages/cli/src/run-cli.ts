import type { Paint, TendError } from "@tend/core/runtime";
import type { CliIo, Diagnostic } from "./cli-io.js";
import { COMMANDS, parseCommandLine, UsageError, type CommandLine, type CommandName } from "./command-line/parse-command-line.js";
import { helpText } from "./help-text.js";
import { colourWanted, paintFor } from "./output/colour.js";
import { diagnosticsOf } from "./output/diagnostics.js";
import { ProgressLine } from "./output/progress.js";

/** The version of the JSON tend prints (`--json`, `--json-stream`); see docs/json.md. */
export const FORMAT_VERSION = 1;

/** A stream tend writes to. */
export interface OutStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CliStreams {
  stdout: OutStream;
  stderr: OutStream;
  env?: NodeJS.ProcessEnv;
}

const RUNNERS: Record<Exclude<CommandName, "help">, () => Promise<(line: CommandLine, io: CliIo) => Promise<number>>> = {
  plan: async () => (await import("./commands/plan-command.js")).planCommand,
  apply: async () => (await import("./commands/apply-command.js")).applyCommand,
  observe: async () => (await import("./commands/observe-command.js")).observeCommand,
  render: async () => (await import("./commands/render-command.js")).renderCommand,
  providers: async () => (await import("./commands/providers-command.js")).providersCommand,
  validate: async () => (await import("./commands/validate-command.js")).validateCommand,
};

/**
 * Runs one command line and returns its exit code; the only place errors are printed. With
 * `--json` stdout gets exactly one document (`formatVersion`, the command, its result and every
 * error as a diagnostic), whatever happens; with `--json-stream`, one event per line.
 */
export async function runCli(argv: string[], streams: CliStreams, version: string): Promise<number> {
  const env = streams.env ?? process.env;
  const jsonStream = argv.includes("--json-stream");
  const json = jsonStream || argv.includes("--json");
  const diagnostics: Diagnostic[] = [];
  let result: unknown;
  let command: CommandName | "unknown" = "unknown";
  const finish = (exitCode: number) => {
    const code = exitCode === 0 && diagnostics.some((d) => d.severity === "error") ? 1 : exitCode;
    const document = { formatVersion: FORMAT_VERSION, command, ok: code === 0 || (command === "plan" && code === 2), exitCode: code, diagnostics, ...(result !== undefined ? { result } : {}) };
    const { formatVersion, ...rest } = document;
    if (jsonStream) streams.stdout.write(`${JSON.stringify({ formatVersion, event: "done", ...rest })}\n`);
    else if (json) streams.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    return code;
  };

  let line: CommandLine;
  try {
    line = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const { closest } = await import("@tend/core/contract");
    const likely = error.typo && closest(error.typo.word, error.typo.candidates);
    const suggestion = likely && (error.typo?.format ? error.typo.format(likely) : likely);
    const lists = error.command ? `tend ${error.command} --help lists its flags` : "tend --help lists the commands and flags";
    const hint = suggestion ? `did you mean \`${suggestion}\`? (${lists})` : lists;
    diagnostics.push({ code: "TEND_USAGE", severity: "error", message: error.message, hint });
    if (!json) {
      const paint = paintFor(colourWanted(streams.stderr, undefined, env));
      streams.stderr.write(`${paint.red("error")} TEND_USAGE: ${error.message}\n  ${paint.cyan("hint")} ${hint}\n`);
    }
    return finish(1);
  }
  command = line.command;
  const paint = paintFor(!json && colourWanted(streams.stdout, line.color, env));
  const paintErr = paintFor(colourWanted(streams.stderr, line.color, env));
  if (line.version) {
    if (json) result = { version };
    else streams.stdout.write(`tend ${version}\n`);
    return finish(0);
  }
  if (line.command === "help" || line.help) {
    const topic = line.command === "help" ? ((line.positionals[0] as CommandName | undefined) ?? "help") : line.command;
    if (!(COMMANDS as readonly string[]).includes(topic)) {
      return report(new UsageErrorLike(`no help on \`${topic}\`: it is not a command`)) ?? finish(1);
    }
    if (json) result = { help: helpText(topic) };
    else streams.stdout.write(helpText(topic));
    return finish(0);
  }

  let isTendError: (value: unknown) => value is TendError = (value): value is TendError => false;
  let formatError: ((error: unknown, paint: Paint) => string) | undefined;
  let addSpecLines: ((error: unknown) => Promise<void>) | undefined;
  const io: CliIo = {
    out: (text) => {
      if (json) return;
      io.progress?.clear();
      streams.stdout.write(text);
    },
    err: (text) => {
      if (json) return;
      io.progress?.clear();
      streams.stderr.write(text);
    },
    paint,
    paintErr,
    json,
    report: (error) => {
      const found = diagnosticsOf(error, isTendError);
      diagnostics.push(...found);
      if (jsonStream) for (const d of found) streams.stdout.write(`${JSON.stringify({ formatVersion: FORMAT_VERSION, event: "diagnostic", ...d })}\n`);
      if (!json && formatError) io.err(formatError(error, paintErr));
    },
    warn: (diagnostic) => {
      diagnostics.push({ ...diagnostic, severity: "warning" });
      if (!json) io.err(`${paintErr.yellow("warning")} ${diagnostic.code}: ${diagnostic.message}\n${diagnostic.hint ? `  ${paintErr.cyan("hint")} ${diagnostic.hint}\n` : ""}`);
    },
    result: (value) => {
      result = value;
    },
    event: (value) => {
      if (jsonStream) streams.stdout.write(`${JSON.stringify({ formatVersion: FORMAT_VERSION, ...value })}\n`);
    },
    progress: !json && streams.stderr.isTTY ? new ProgressLine(streams.stderr as NodeJS.WriteStream) : undefined,
  };
  try {
    const core = await import("@tend/core/runtime");
    isTendError = core.TendError.isInstance;
    formatError = core.formatError;
    addSpecLines = core.addSpecLines;
    const run = await RUNNERS[line.command]();
    const code = await run(line, io);
    io.progress?.stop();
    return finish(code);
  } catch (error) {
    io.progress?.stop();
    await addSpecLines?.(error);
    io.report(error);
    return finish(1);
  }

  function report(error: UsageErrorLike): number | undefined {
    diagnostics.push({ code: "TEND_USAGE", severity: "error", message: error.message, hint: "tend --help lists the commands and flags" });
    if (!json) streams.stderr.write(`${paintErr.red("error")} TEND_USAGE: ${error.message}\n`);
    return undefined;
  }
}

class UsageErrorLike {
  constructor(readonly message: string) {}
}
