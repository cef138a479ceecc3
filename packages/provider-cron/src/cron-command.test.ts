import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CRONS, debianCron, type CronDecoder } from "./__fixtures__/cron-decoders.js";
import { cronCommand } from "./cron-command.js";
import { STDIN_COMMAND } from "./escape-cron-command.js";

/** Runs a command field as the given cron would: `/bin/sh -c COMMAND` with a tiny environment, fed its stdin. */
function runAsCron(field: string, decode: CronDecoder = debianCron): string {
  const { command, stdin } = decode(field);
  return execFileSync("/bin/sh", ["-c", command], { input: stdin, env: { PATH: "/usr/bin:/bin" }, encoding: "utf8" });
}

describe("cronCommand", () => {
  it("is the exec as written when there is no env", () => {
    expect(cronCommand({ exec: "restic backup ~/Documents" })).toBe("restic backup ~/Documents");
  });

  it("exports env before the command, single-quoted where needed", () => {
    expect(cronCommand({ exec: "/opt/web/bin/job --once", env: { RUST_LOG: "info", GREETING: "it's 100% done" } })).toBe(
      String.raw`export RUST_LOG=info GREETING='it'\''s 100\% done'; /opt/web/bin/job --once`,
    );
  });

  it("gives a shell-syntax command its env for every part of it", () => {
    const field = cronCommand({ exec: `cd / && printenv A; printenv A; printenv A | tr a b`, env: { A: "a" } });
    expect(runAsCron(field)).toBe("a\na\nb\n");
  });

  it.each(CRONS)("runs a command holding `\\\\` or `\\%%` from stdin under %s, leaving no trace of how", (_name, decode) => {
    const exec = String.raw`cat; printf '[%s]' "${"$"}{tend_command-unset}" 'a\\b' 'c\%d' "$X" 100%`;
    const field = cronCommand({ exec, env: { X: String.raw`\\%` } });
    expect(field.startsWith(STDIN_COMMAND)).toBe(true);
    expect(runAsCron(field, decode)).toBe(String.raw`[unset][a\\b][c\%d][\\%][100%]`);
  });

  it.each(CRONS)("runs exactly the command written, with exactly the env given, under %s (checked by /bin/sh)", (_name, decode) => {
    const value = fc.string({ unit: fc.constantFrom("a", " ", "\t", "%", "\\", "'", '"', "$", "`", "*", "~", "#", ";", "é") });
    fc.assert(
      fc.property(value, value, (one, two) => {
        const exec = `printf '%s|' "$ONE" "$TWO"; printf '%s' '100% \\ done'`;
        expect(runAsCron(cronCommand({ exec, env: { ONE: one, TWO: two } }), decode)).toBe(`${one}|${two}|100% \\ done`);
      }),
      { numRuns: 150 },
    );
  });
});
