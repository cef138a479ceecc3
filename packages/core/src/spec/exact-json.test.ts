import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { exactJson } from "./exact-json.js";

describe("exactJson", () => {
  it("gives the same text only to the same data, and a copy of data its text", () => {
    const data = fc.jsonValue();
    fc.assert(
      fc.property(data, data, (a, b) => {
        const [ta, tb] = [exactJson(a), exactJson(b)];
        expect(ta).toBeDefined();
        expect(exactJson(structuredClone(a))).toBe(ta);
        if (ta === tb) expect(isDeepStrictEqual(a, b)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("tells undefined, a missing key, -0 and 0, a string and a number apart", () => {
    const texts = [{ a: undefined }, {}, { a: 0 }, { a: -0 }, { a: "0" }, { a: null }, [undefined], [null]].map(exactJson);
    expect(new Set(texts).size).toBe(texts.length);
  });

  it("refuses what JSON would not say exactly", () => {
    class Thing {
      a = 1;
    }
    const accessor = Object.defineProperty({}, "a", { get: () => 1, enumerable: true });
    const hidden = Object.defineProperty({}, "a", { value: 1, enumerable: false });
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const extra = Object.assign([1], { note: "x" });
    for (const value of [() => 1, new Date(0), new Thing(), Number.NaN, Infinity, 1n, Symbol("s"), accessor, hidden, cycle, extra, [1, , 3], new Map()]) {
      expect(exactJson({ env: value })).toBeUndefined();
    }
  });

  it("ignores a symbol key (the site a builder marks)", () => {
    const marked = Object.defineProperty({ name: "web" }, Symbol.for("tend.spec-site"), { value: { file: "/f", line: 1 } });
    expect(exactJson(marked)).toBe(exactJson({ name: "web" }));
  });
});
