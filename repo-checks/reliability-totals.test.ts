// docs/reliability.md's totals line counts what its Gap column says, row by row.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { REPO } from "./doc-blocks.js";

it("docs/reliability.md's totals match the Gap column of its scenarios", () => {
  const text = readFileSync(join(REPO, "docs/reliability.md"), "utf8");
  const gaps = text
    .split("\n")
    .filter((line) => /^\| \d+ \|/.test(line))
    .map((line) => line.split(" | ").at(-1)!);
  const count = (start: string) => gaps.filter((gap) => gap.startsWith(start)).length;
  const totals = /Totals for the (\d+) scenarios: (\d+) covered, (\d+) partial, (\d+) missing\./.exec(text);
  expect(totals?.slice(1).map(Number)).toEqual([gaps.length, count("—"), count("Partial:"), count("Missing:")]);
});
