import { describe, expect, it } from "vitest";
import { fnmatchPattern } from "./fnmatch-pattern.js";

const matches = (pattern: string, name: string) => fnmatchPattern(pattern)!.test(name);

describe("fnmatchPattern (fnmatch with FNM_NOESCAPE)", () => {
  it("reads *, ? and literal characters, regex metacharacters included", () => {
    expect(matches("tend-*", "tend-web.service")).toBe(true);
    expect(matches("tend-*", "xtend-web.service")).toBe(false);
    expect(matches("*.timer", "a/b.timer")).toBe(true);
    expect(matches("tend-?.service", "tend-a.service")).toBe(true);
    expect(matches("tend-?.service", "tend-ab.service")).toBe(false);
    expect(matches("a.b+c(d)", "a.b+c(d)")).toBe(true);
    expect(matches("a.b", "axb")).toBe(false);
    expect(matches("a\\*", "a\\xyz")).toBe(true);
  });

  it("reads sets: ranges, negation with ! or ^, a leading ]", () => {
    expect(matches("tend-[a-c]*", "tend-b.service")).toBe(true);
    expect(matches("tend-[a-c]*", "tend-d.service")).toBe(false);
    expect(matches("tend-[!a-c]*", "tend-d.service")).toBe(true);
    expect(matches("tend-[^a-c]*", "tend-a.service")).toBe(false);
    expect(matches("x[]]y", "x]y")).toBe(true);
    expect(matches("x[-a]y", "x-y")).toBe(true);
  });

  it("is undefined for what it does not read", () => {
    expect(fnmatchPattern("tend-[[:alpha:]]*")).toBeUndefined();
    expect(fnmatchPattern("tend-[abc")).toBeUndefined();
  });
});
