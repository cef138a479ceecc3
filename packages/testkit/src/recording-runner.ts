import { checkExit, type Command, type CommandResult, type Runner } from "@tend/core";

type Matcher = string | RegExp | ((argv: string[]) => boolean);
type Answer = Partial<CommandResult> | ((command: Command) => Partial<CommandResult>);

/**
 * A runner for tests: records every command and answers from a script of rules (first match
 * wins; a string matches a prefix of the argv joined by spaces). Unmatched commands succeed
 * with empty output. Exit codes are checked exactly as the production runner checks them.
 */
export class RecordingRunner implements Runner {
  readonly calls: Command[] = [];
  private readonly rules: { match: Matcher; answer: Answer; times: number }[] = [];

  /** Answer commands matching `match`; `times` limits how often the rule applies. */
  on(match: Matcher, answer: Answer, times = Infinity): this {
    this.rules.push({ match, answer, times });
    return this;
  }

  async run(command: Command): Promise<CommandResult> {
    this.calls.push(command);
    const line = command.argv.join(" ");
    const rule = this.rules.find((r) => r.times > 0 && matches(r.match, command.argv, line));
    if (rule) rule.times -= 1;
    const answer = rule ? (typeof rule.answer === "function" ? rule.answer(command) : rule.answer) : {};
    return checkExit(command, { exitCode: answer.exitCode ?? 0, stdout: answer.stdout ?? "", stderr: answer.stderr ?? "" });
  }

  /** Every recorded command as one line, for asserting sequences. */
  get lines(): string[] {
    return this.calls.map((c) => c.argv.join(" "));
  }

  clear(): void {
    this.calls.length = 0;
  }
}

function matches(match: Matcher, argv: string[], line: string): boolean {
  if (typeof match === "function") return match(argv);
  if (typeof match === "string") return line === match || line.startsWith(`${match} `);
  return match.test(line);
}
