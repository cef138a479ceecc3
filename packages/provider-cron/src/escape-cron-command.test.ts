import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CRONS, cronie, debianCron, readLine, vixieCron41, type CronDecoding } from "./__fixtures__/cron-decoders.js";
import { escapeCronCommand, STDIN_COMMAND } from "./escape-cron-command.js";

/** The script the shell ends up running: the command field, or the stdin line STDIN_COMMAND evals. */
function scriptRun({ command, stdin }: CronDecoding): string {
  if (command === STDIN_COMMAND) return readLine(stdin);
  expect(stdin).toBe("");
  return command;
}

const tricky = fc.string({ unit: fc.constantFrom("a", " ", "\t", "%", "\\", "\\\\", "\\%", "'", '"', "$", "n", "é", "`") });

describe("the cron models", () => {
  it("match what Debian's cron daemon did with each field", () => {
    expect(debianCron(String.raw`X='A\\B'`).command).toBe(String.raw`X='A\B'`);
    expect(debianCron(String.raw`X='A\%B'`).command).toBe("X='A%B'");
    expect(debianCron(String.raw`X='A\B'`).command).toBe(String.raw`X='A\B'`);
    expect(debianCron(String.raw`X='A\\\%B'`).command).toBe(String.raw`X='A\%B'`);
    expect(debianCron(String.raw`X='A\'`).command).toBe(String.raw`X='A\'`);
    expect(debianCron("date +%F")).toEqual({ command: "date +", stdin: "F\n" });
  });

  it("differ on backslashes: cronie and vixie-cron 4.1 un-escape only `\\%`", () => {
    for (const decode of [cronie, vixieCron41]) {
      expect(decode(String.raw`a\\b`).command).toBe(String.raw`a\\b`);
      expect(decode(String.raw`a\\%b`)).toEqual({ command: String.raw`a\\`, stdin: "b\n" });
      expect(decode(String.raw`a\\\%b`).command).toBe(String.raw`a\\%b`);
      expect(decode("a\\%b\\n\\").command).toBe("a%b\\n\\");
    }
    expect(debianCron(String.raw`a\\%b`)).toEqual({ command: "a\\", stdin: "b\n" });
  });

  it("read stdin alike: `\\%` is `%`, `%` a newline, other backslashes stay", () => {
    for (const [, decode] of CRONS) {
      expect(decode("cat%a\\%b%c\\\\d\\\\%e\\").stdin).toBe("a%b\nc\\\\d\\%e\\\n");
    }
  });
});

describe("escapeCronCommand", () => {
  it("writes % as \\% and leaves the rest of a command in-line", () => {
    expect(escapeCronCommand("date +%F")).toBe(String.raw`date +\%F`);
    expect(escapeCronCommand(String.raw`printf '%s\n' "$X" | tr -d '\'`)).toBe(String.raw`printf '\%s\n' "$X" | tr -d '\'`);
    expect(escapeCronCommand("/usr/local/bin/tend gc --older-than 14d")).toBe("/usr/local/bin/tend gc --older-than 14d");
    expect(escapeCronCommand("echo it'\\''s")).toBe("echo it'\\''s");
  });

  it("sends a command holding `\\\\` or `\\%` on stdin, which every cron decodes alike", () => {
    expect(escapeCronCommand(String.raw`tr -d '\\' <in >out`)).toBe(`${STDIN_COMMAND}%tr -d '\\\\' <in >out`);
    expect(escapeCronCommand(String.raw`printf '\%s' 5%`)).toBe(`${STDIN_COMMAND}%printf '\\\\%s' 5\\%`);
    for (const [, decode] of CRONS) {
      expect(scriptRun(decode(escapeCronCommand(String.raw`tr -d '\\' <in >out`)))).toBe(String.raw`tr -d '\\' <in >out`);
    }
  });

  it.each(CRONS)("hands %s's shell every command byte for byte", (_name, decode) => {
    fc.assert(
      fc.property(tricky, (command) => {
        expect(scriptRun(decode(escapeCronCommand(command)))).toBe(command);
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: "binary" }).filter((s) => !/[\u0000\n]/.test(s)), (command) => {
        expect(scriptRun(decode(escapeCronCommand(command)))).toBe(command);
      }),
    );
    for (const command of ["\\", "\\\\", "\\%", "%", "%%", "a\\", "\\\\%", "\\%\\", "'\\''", "100% \\ done\\"]) {
      expect(scriptRun(decode(escapeCronCommand(command))), command).toBe(command);
    }
  });
});
