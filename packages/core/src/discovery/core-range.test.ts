import fc from "fast-check";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { plainRangeSatisfied, satisfiesCoreRange } from "./core-range.js";

const part = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 1e6 }));
const version = fc.tuple(part, part, part).map((parts) => parts.join("."));
const op = fc.constantFrom("", ">=", "<=", ">", "<", "=");
const comparator = fc.tuple(op, version).map(([o, v]) => `${o}${v}`);
const set = fc.array(comparator, { minLength: 1, maxLength: 3 }).map((list) => list.join(" "));
const range = fc.array(set, { minLength: 1, maxLength: 3 }).map((sets) => sets.join(" || "));

describe("a provider's peer range on @tend/core", () => {
  it("answers a plain range exactly as semver does", () => {
    fc.assert(
      fc.property(version, range, (v, r) => {
        expect(plainRangeSatisfied(v, r)).toBe(semver.satisfies(v, r, { includePrerelease: true }));
      }),
      { numRuns: 2000 },
    );
  });

  it("leaves every other form to semver, and gets semver's answer", async () => {
    const cases: [string, string][] = [
      ["0.3.0", "^0.3.0"],
      ["0.4.0", "^0.3.0"],
      ["1.2.3", "~1.2.0"],
      ["1.2.3", "1.x"],
      ["1.2.3", "1.0.0 - 2.0.0"],
      ["1.0.0-next.1", ">=0.1.0 <1.0.0"],
      ["0.2.0", ">= 0.1.0"],
      ["0.2.0", "*"],
      ["0.2.0", ""],
      ["0.2.0", "v0.2.0"],
      ["0.2.0", ">=00.1.0"],
    ];
    for (const [v, r] of cases) {
      expect(plainRangeSatisfied(v, r), `${v} ${r}`).toBeUndefined();
      expect(await satisfiesCoreRange(v, r), `${v} ${r}`).toBe(semver.satisfies(v, r, { includePrerelease: true }));
    }
  });
});
