import { RecordingRunner } from "@tend/testkit";
import type { Command } from "@tend/core";

/**
 * A stand-in for Debian's `crontab`, answering through a RecordingRunner with the messages and
 * exit codes captured in this folder: `-l` prints the stored text or fails with `no crontab for`,
 * `-` stores its input or refuses a job line without a final newline. `beforeList` can edit a
 * crontab between two reads, as a user running `crontab -e` would.
 */
export class FakeCrontab {
  readonly runner = new RecordingRunner();
  readonly crontabs = new Map<string, string>();
  readonly installs: { user: string; text: string }[] = [];
  /** Runs before each `-l`, with how many `-l` ran before for that user. */
  beforeList?: (user: string, count: number) => void;
  /** A failure every `-l` returns instead (e.g. an unknown user). */
  listFailure?: { exitCode: number; stderr: string };
  private readonly lists = new Map<string, number>();

  constructor(private readonly invokingUser = "root") {
    this.runner.on((argv) => argv.includes("crontab"), (command) => this.answer(command));
  }

  private answer(command: Command): { exitCode: number; stdout?: string; stderr?: string } {
    const args = command.argv.slice(command.argv.indexOf("crontab") + 1);
    const user = args[0] === "-u" ? args[1]! : this.invokingUser;
    const action = args[0] === "-u" ? args[2] : args[0];
    if (action === "-l") {
      const count = this.lists.get(user) ?? 0;
      this.lists.set(user, count + 1);
      this.beforeList?.(user, count);
      if (this.listFailure) return this.listFailure;
      const text = this.crontabs.get(user);
      return text === undefined ? { exitCode: 1, stderr: `no crontab for ${user}\n` } : { exitCode: 0, stdout: text };
    }
    if (action === "-") {
      const text = command.input ?? "";
      const last = text.match(/[^\n]*$/)![0];
      if (last.trim() !== "" && !last.trimStart().startsWith("#")) {
        return { exitCode: 1, stderr: "new crontab file is missing newline before EOF, can't install.\n" };
      }
      this.crontabs.set(user, text);
      this.installs.push({ user, text });
      return { exitCode: 0 };
    }
    return { exitCode: 1, stderr: `crontab: usage error: unexpected ${args.join(" ")}\n` };
  }
}
