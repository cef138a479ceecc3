import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeCronCommand } from "./escape-cron-command.js";

/**
 * What cron hands to `/bin/sh -c` for a command field: the loop in Debian cron's do_command.c
 * (`\%` -> `%`, `\\` -> `\`, any other `\x` kept, a bare `%` ends the command). The examples
 * below are what the daemon itself produced (see __fixtures__/README.md).
 */
function cronDecodes(field: string): string {
  let out = "";
  for (let i = 0; i < field.length; i += 1) {
    const ch = field[i]!;
    const next = field[i + 1];
    if (ch === "\\" && (next === "\\" || next === "%")) {
      out += next;
      i += 1;
    } else if (ch === "%") {
      break;
    } else {
      out += ch;
    }
  }
  return out;
}

describe("escapeCronCommand", () => {
  it("matches what Debian's cron daemon did with each field", () => {
    expect(cronDecodes(String.raw`X='A\\B'`)).toBe(String.raw`X='A\B'`);
    expect(cronDecodes(String.raw`X='A\%B'`)).toBe("X='A%B'");
    expect(cronDecodes(String.raw`X='A\B'`)).toBe(String.raw`X='A\B'`);
    expect(cronDecodes(String.raw`X='A\\\%B'`)).toBe(String.raw`X='A\%B'`);
    expect(cronDecodes(String.raw`X='A\'`)).toBe(String.raw`X='A\'`);
    expect(cronDecodes("date +%F")).toBe("date +");
  });

  it("escapes % and backslashes", () => {
    expect(escapeCronCommand("date +%F")).toBe(String.raw`date +\%F`);
    expect(escapeCronCommand(String.raw`printf 'a\n' | tr -d '\\'`)).toBe(String.raw`printf 'a\\n' | tr -d '\\\\'`);
    expect(escapeCronCommand("/usr/local/bin/tend gc --older-than 14d")).toBe("/usr/local/bin/tend gc --older-than 14d");
  });

  it("hands the shell every command byte for byte", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", " ", "%", "\\", "'", '"', "$", "n", "é") }), (command) => {
        expect(cronDecodes(escapeCronCommand(command))).toBe(command);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: "binary" }).filter((s) => !s.includes("\u0000")), (command) => {
        expect(cronDecodes(escapeCronCommand(command))).toBe(command);
      }),
    );
  });
});
