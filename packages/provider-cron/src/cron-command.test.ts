import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cronCommand } from "./cron-command.js";

/** What cron gives the shell for a command field (see escape-cron-command.test.ts). */
function cronDecodes(field: string): string {
  return field.replace(/\\([\\%])|%[^]*$/g, (_all, escaped: string | undefined) => escaped ?? "");
}

/** Runs the decoded field as cron does: `/bin/sh -c FIELD` with a tiny environment. */
function runAsCron(field: string): string {
  return execFileSync("/bin/sh", ["-c", cronDecodes(field)], { env: { PATH: "/usr/bin:/bin" }, encoding: "utf8" });
}

describe("cronCommand", () => {
  it("is the exec as written when there is no env", () => {
    expect(cronCommand({ exec: "restic backup ~/Documents" })).toBe("restic backup ~/Documents");
  });

  it("exports env before the command, single-quoted where needed", () => {
    expect(cronCommand({ exec: "/opt/web/bin/job --once", env: { RUST_LOG: "info", GREETING: "it's 100% done" } })).toBe(
      String.raw`export RUST_LOG=info GREETING='it'\\''s 100\% done'; /opt/web/bin/job --once`,
    );
  });

  it("gives a shell-syntax command its env for every part of it", () => {
    const field = cronCommand({ exec: `cd / && printenv A; printenv A; printenv A | tr a b`, env: { A: "a" } });
    expect(runAsCron(field)).toBe("a\na\nb\n");
  });

  it("runs exactly the command written, with exactly the env given (checked by /bin/sh)", () => {
    const value = fc.string({ unit: fc.constantFrom("a", " ", "\t", "%", "\\", "'", '"', "$", "`", "*", "~", "#", ";", "é") });
    fc.assert(
      fc.property(value, value, (one, two) => {
        const exec = `printf '%s|' "$ONE" "$TWO"; printf '%s' '100% \\ done'`;
        expect(runAsCron(cronCommand({ exec, env: { ONE: one, TWO: two } }))).toBe(`${one}|${two}|100% \\ done`);
      }),
      { numRuns: 150 },
    );
  });
});
