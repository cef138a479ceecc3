import { describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript module of the benchmark, no declarations
import { regressions } from "../bench/compare.mjs";

describe("the benchmark's CI check (bench/run.mjs --check)", () => {
  const base = { "no-op plan": 2, "fresh apply": 1.2 };

  it("fails a ratio that grew past twice its baseline, and only that one", () => {
    const found = regressions(
      [
        { name: "no-op plan", ms: 900, ratio: 4.1 },
        { name: "fresh apply", ms: 50_000, ratio: 2.3 },
      ],
      base,
    );
    expect(found).toEqual([{ name: "no-op plan", ratio: 4.1, baseline: 2 }]);
  });

  it("never compares absolute times, nor rows without a baseline", () => {
    expect(regressions([{ name: "no-op plan", ms: 1_000_000, ratio: 2 }, { name: "new row", ms: 1, ratio: 100 }, { name: "plan 10,000", ms: 99_000 }], base)).toEqual([]);
  });
});
