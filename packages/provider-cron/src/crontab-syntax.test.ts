import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { parseSchedule, type Timer } from "@tend/core";
import { describe, expect, it } from "vitest";
import { STDIN_COMMAND } from "./escape-cron-command.js";
import { parseCrontab } from "./parse-crontab.js";
import { renderCronFile } from "./render-cron-file.js";
import { renderCrontabBlock } from "./render-crontab-block.js";
import { spliceCrontab } from "./splice-crontab.js";

/** Debian's crontab is the oracle (CI installs it); `-n` checks the syntax and writes nothing. */
const crontab = spawnSync("sh", ["-c", "command -v crontab"], { encoding: "utf8" }).stdout.trim();

function crontabAccepts(text: string): { ok: boolean; message: string } {
  const result = spawnSync(crontab, ["-n", "-"], { input: text, encoding: "utf8", env: { LC_ALL: "C", PATH: "/usr/bin:/bin" } });
  return { ok: result.status === 0, message: `${result.stdout}${result.stderr}` };
}

const value = (min: number, max: number, names: string[] = []) =>
  fc.oneof(fc.integer({ min, max }).map(String), ...(names.length > 0 ? [fc.constantFrom(...names)] : []));
const part = (min: number, max: number, names: string[] = []) =>
  fc.oneof(
    fc.constant("*"),
    value(min, max, names),
    fc.tuple(fc.integer({ min: 1, max: max - min + 1 })).map(([step]) => `*/${step}`),
    fc.tuple(value(min, max, names), value(min, max, names)).map(([a, b]) => `${a}-${b}`),
    fc.tuple(value(min, max, names), value(min, max, names), fc.integer({ min: 1, max: 12 })).map(([a, b, s]) => `${a}-${b}/${s}`),
  );
const field = (min: number, max: number, names: string[] = []) => fc.array(part(min, max, names), { minLength: 1, maxLength: 3 }).map((p) => p.join(","));
const schedule = fc
  .oneof(
    fc.constantFrom("@hourly", "@daily", "@weekly", "@monthly"),
    fc
      .tuple(
        field(0, 59),
        field(0, 23),
        field(1, 31),
        field(1, 12, ["jan", "feb", "jun", "dec"]),
        field(0, 7, ["sun", "mon", "fri", "sat"]),
      )
      .map((fields) => fields.join(" ")),
  )
  .filter((text) => {
    try {
      parseSchedule(text);
      return true;
    } catch {
      return false;
    }
  });
const text = fc.string({ unit: fc.constantFrom("a", " ", "%", "\\", "'", '"', "$", "#", "*", "é"), minLength: 1 });
const timer = fc.record({
  type: fc.constant("timer" as const),
  name: fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/),
  exec: text.map((t) => `echo ${t}`),
  schedule,
  env: fc.dictionary(fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,5}$/), text, { maxKeys: 3 }),
}) satisfies fc.Arbitrary<Timer>;

const aTimer = (fields: Partial<Timer>): Timer => ({ type: "timer", name: "job", exec: "true", schedule: "@daily", ...fields });

describe.skipIf(crontab === "")("Debian's crontab accepts what tend writes", () => {
  it("every schedule tend accepts, with any command and env, in a block of a user's crontab", () => {
    const mine = 'MAILTO=""\n# mine\n*/5 * * * * poll\n';
    fc.assert(
      fc.property(timer, (t) => {
        const block = renderCrontabBlock({ ...t, user: true }, "alice").content;
        const spliced = spliceCrontab(parseCrontab(mine, "alice"), new Map([[t.name, block]]));
        const verdict = crontabAccepts(spliced);
        expect(verdict.ok, `${verdict.message}\n${spliced}`).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("a cron.d file's variable and job lines", () => {
    fc.assert(
      fc.property(timer, (t) => {
        const verdict = crontabAccepts(renderCronFile(t).content);
        expect(verdict.ok, verdict.message).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it("both command forms, in-line and on stdin", () => {
    const inline = aTimer({ exec: String.raw`printf '%s\n' 'a\b' 100%` });
    const onStdin = aTimer({ exec: String.raw`tr -d '\\' <in; printf 'c\%d' 5%` });
    expect(renderCronFile(inline).content).not.toContain(STDIN_COMMAND);
    for (const t of [inline, onStdin]) {
      expect(crontabAccepts(renderCronFile(t).content)).toMatchObject({ ok: true });
      expect(crontabAccepts(renderCrontabBlock({ ...t, user: true }, "alice").content)).toMatchObject({ ok: true });
    }
    expect(renderCrontabBlock({ ...onStdin, user: true }, "alice").content).toContain(`@daily ${STDIN_COMMAND}%tr -d '\\\\' <in`);
  });

  it("and rejects what the oracle should reject, so it is really checking", () => {
    expect(crontabAccepts("61 * * * * x\n").ok).toBe(false);
    const valid = crontabAccepts("* * * * * x\n");
    expect(valid.ok).toBe(true);
    expect(valid.message).toContain("successfully checked");
  });
});
