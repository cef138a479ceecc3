import { checkExit, type Command, type CommandResult, type Runner } from "../index.js";

/** Core's tests cannot import @tend/testkit (it depends on core); this is the same idea, smaller. */
export class RecordingRunnerForCore implements Runner {
  readonly lines: string[] = [];
  failOn?: (line: string) => Partial<CommandResult> | undefined;
  async run(command: Command): Promise<CommandResult> {
    const line = command.argv.join(" ");
    this.lines.push(line);
    const answer = this.failOn?.(line) ?? {};
    return checkExit(command, { exitCode: answer.exitCode ?? 0, stdout: answer.stdout ?? "", stderr: answer.stderr ?? "" });
  }
}
