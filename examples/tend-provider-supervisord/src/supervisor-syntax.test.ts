import { describe, expect, it } from "vitest";
import { carriesInEnvironment, commandValue, environmentValue, quoteArgument } from "./supervisor-syntax.js";

describe("quoteArgument", () => {
  it.each([
    ["/opt/web/bin/server", "/opt/web/bin/server"],
    ["", "''"],
    ["daemon off;", "'daemon off'\\;"],
    ["it's", "'it'\\''s'"],
    ["a #b", "'a '\\#'b'"],
    [";", "\\;"],
    ["$HOME `id` \"q\"", "'$HOME `id` \"q\"'"],
    ["back\\slash", "'back\\slash'"],
    ["two  spaces", "'two  spaces'"],
  ])("%j is written %j", (arg, quoted) => {
    expect(quoteArgument(arg)).toBe(quoted);
  });
});

describe("commandValue", () => {
  it("joins the quoted arguments and doubles % for supervisord's expansion", () => {
    expect(commandValue(["/bin/printf", "100% done"])).toBe("/bin/printf '100%% done'");
  });
});

describe("environment=", () => {
  it("double-quotes every value and doubles %", () => {
    expect(environmentValue([["A", "1"], ["B", "it's 100%, ok"]])).toBe(`A="1",B="it's 100%%, ok"`);
  });

  it.each([
    ["it's", true],
    ["a;b#c", true],
    ['say "hi"', false],
    ["'quoted'", false],
    ["a ;b", false],
    ["a\t#b", false],
  ])("%j can be carried: %s", (value, carried) => {
    expect(carriesInEnvironment(value)).toBe(carried);
  });
});
