import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCrontab } from "./parse-crontab.js";
import { spliceCrontab } from "./splice-crontab.js";

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
const block = (name: string, job = `* * * * * /usr/bin/true ${name}`) => `# BEGIN tend:${name}\n${job}\n# END tend:${name}\n`;
const splice = (text: string, updates: [string, string | null][]) => spliceCrontab(parseCrontab(text, "alice"), new Map(updates));
const strip = (text: string) => splice(text, [...parseCrontab(text, "alice").blocks.keys()].map((name) => [name, null]));

/** A line a user might have in a crontab: jobs, variables, comments, blank lines; never a tend marker. */
const userLine = fc.oneof(
  fc.constantFrom("MAILTO=alice@example.org", 'MAILTO=""', "SHELL=/bin/bash", "PATH=/home/alice/bin:/usr/bin:/bin", "", "   ", "\t", "# my jobs", "#", "# BEGIN something else", "# END of file"),
  fc.constantFrom("*/5 * * * * /home/alice/bin/poll >/dev/null 2>&1", "0 9 * * mon-fri date +\\%F >> ~/days", "@reboot ~/bin/start", "30 2 * * * echo 100\\% % and stdin"),
  fc.string({ unit: fc.constantFrom("a", " ", "#", "*", "%", "\\", "=", "\t", "é", "\r") }),
);
const userCrontab = fc
  .tuple(fc.array(userLine, { maxLength: 12 }), fc.boolean())
  .map(([lines, finalNewline]) => (lines.length === 0 ? "" : lines.join("\n") + (finalNewline ? "\n" : "")))
  .filter((text) => {
    try {
      return parseCrontab(text, "alice").blocks.size === 0;
    } catch {
      return false;
    }
  });
const name = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_-]{0,11}$/);
const blocks = fc.uniqueArray(fc.tuple(name, fc.constantFrom("* * * * * true", "@daily export A='1%'; b", "0 0 * * 0 x\\%y")), {
  selector: ([n]) => n,
  maxLength: 5,
});

describe("spliceCrontab", () => {
  it("adds a block after the user's lines", async () => {
    const text = splice("MAILTO=alice@example.org\n# mine\n*/5 * * * * poll\n", [["backup", block("backup", "30 2 * * * restic backup ~/Documents")]]);
    await expect(text).toMatchFileSnapshot("./__golden__/splice-add");
  });

  it("replaces a block where it stands and keeps the lines around it", async () => {
    const text = splice(fixture("crontab-l-alice.stdout"), [["backup", block("backup", "45 3 * * * restic backup ~/Documents ~/Pictures")]]);
    await expect(text).toMatchFileSnapshot("./__golden__/splice-change");
  });

  it("removes a block and nothing else", async () => {
    const text = splice(fixture("crontab-l-alice.stdout"), [["backup", null]]);
    await expect(text).toMatchFileSnapshot("./__golden__/splice-remove");
  });

  it("never adds a newline to the user's unterminated last line: new blocks go before it", async () => {
    const text = splice("MAILTO=\"\"\n# last words, no newline", [["a", block("a")], ["b", block("b")]]);
    await expect(text).toMatchFileSnapshot("./__golden__/splice-unterminated");
    expect(text.endsWith("# last words, no newline")).toBe(true);
  });

  it("goes before a kept block whose END has lost its newline", () => {
    const text = "# mine\n# BEGIN tend:old\n* * * * * x\n# END tend:old";
    expect(splice(text, [["new", block("new")]])).toBe(`# mine\n${block("new")}# BEGIN tend:old\n* * * * * x\n# END tend:old`);
  });

  it("restores a block whose END lost its newline", () => {
    expect(splice("# mine\n# BEGIN tend:a\nedited\n# END tend:a", [["a", block("a")]])).toBe(`# mine\n${block("a")}`);
  });

  it("for any user crontab U and any tend blocks, removing the blocks gives U back byte for byte", () => {
    fc.assert(
      fc.property(userCrontab, blocks, (user, added) => {
        const withBlocks = splice(user, added.map(([n, job]) => [n, block(n, job)]));
        expect(strip(withBlocks)).toBe(user);
        const parsed = parseCrontab(withBlocks, "alice");
        expect(new Map(parsed.blocks)).toEqual(new Map(added.map(([n, job]) => [n, block(n, job)])));
      }),
      { numRuns: 3000 },
    );
  });

  it("is idempotent and leaves U alone through add, change and removal in any order", () => {
    fc.assert(
      fc.property(userCrontab, blocks, blocks, (user, first, second) => {
        const once = splice(user, first.map(([n, job]) => [n, block(n, job)]));
        expect(splice(once, first.map(([n, job]) => [n, block(n, job)]))).toBe(once);
        const updates: [string, string | null][] = [
          ...first.map(([n]): [string, string | null] => [n, second.some(([m]) => m === n) ? null : block(n, "1 1 1 1 * changed")]),
          ...second.map(([n, job]): [string, string] => [n, block(n, job)]),
        ];
        const twice = splice(once, updates);
        expect(strip(twice)).toBe(user);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps the user's lines around blocks placed in the middle", () => {
    fc.assert(
      fc.property(userCrontab, userCrontab, blocks, (before, after, kept) => {
        const head = before === "" || before.endsWith("\n") ? before : `${before}\n`;
        const text = head + kept.map(([n, job]) => block(n, job)).join("") + after;
        const stripped = strip(text);
        expect(stripped).toBe(head + after);
        expect(strip(splice(text, kept.map(([n]) => [n, block(n, "changed")])))).toBe(head + after);
      }),
      { numRuns: 1000 },
    );
  });
});
