import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { lexSettingValue, substituteDollars } from "./lex-setting-value.js";

interface LexCase {
  value: string;
  argv: string[];
}
const fixture = JSON.parse(readFileSync(new URL("./__fixtures__/command-lexing.json", import.meta.url), "utf8")) as { cases: LexCase[] };

/** dinit's full reading of a `command =` value that uses no variables. */
function dinitArgv(value: string): (string | undefined)[] {
  return lexSettingValue(value).map(substituteDollars);
}

describe("lexSettingValue", () => {
  it.each(fixture.cases)("reads $value as the real dinit 0.22.1 did", ({ value, argv }) => {
    expect(dinitArgv(value)).toEqual(argv);
  });

  it("refuses what dinit refuses", () => {
    expect(() => lexSettingValue('"open')).toThrow(/unterminated/);
    expect(() => lexSettingValue("a#b")).toThrow(/separated from setting value by whitespace/);
  });

  it("leaves words that use a variable to the running dinit", () => {
    expect(substituteDollars("$HOME/x")).toBeUndefined();
    expect(substituteDollars("${X:-y}")).toBeUndefined();
    expect(substituteDollars("a$$b")).toBe("a$b");
  });
});
