// Every test README.md and docs/*.md cite exists under the title they give, and every file they link to exists.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { docFiles, REPO } from "./doc-blocks.js";
import { chainProblem, citationProblems, findFileReferences, findTestCitations, readTestTree, titleMatches } from "./test-citations.js";

describe("the docs' citations", () => {
  it.each(docFiles())("%s cites only tests and files that exist", (doc) => {
    expect(citationProblems(REPO, doc, readFileSync(join(REPO, doc), "utf8"))).toEqual([]);
  });

  it("finds the citations of docs/reliability.md", () => {
    const doc = "docs/reliability.md";
    expect(findTestCitations(doc, readFileSync(join(REPO, doc), "utf8")).length).toBeGreaterThan(50);
  });
});

describe("the citation check's own rules", () => {
  const source = [
    'describe("ScopeLock", () => {',
    '  it("lets one holder in", () => {});',
    '  it.each([1, 2])("waits %s seconds for $name", () => {});',
    "  it(`${kind}: a rerun converges`, () => {});",
    '  it.skip("is not written yet", () => {});',
    '  describe("under contention", () => { it("never has two holders", () => {}); });',
    "});",
    'describe.skipIf(!ok)(ok ? TITLE : "dinit (skipped)", () => { it("serves", () => {}); });',
    'const TITLE = "dinit under a real dinit";',
  ].join("\n");
  const tree = readTestTree(source);

  it("matches a title literally, or with template and each placeholders as wildcards", () => {
    expect(titleMatches("lets one holder in", "lets one holder in")).toBe(true);
    expect(titleMatches("lets one holder in", "lets two holders in")).toBe(false);
    expect(titleMatches("waits %s seconds for $name", "waits 5 seconds for alice")).toBe(true);
    expect(titleMatches("waits %s seconds for $name", "waits %s seconds for $name")).toBe(true);
    expect(titleMatches("waits %s seconds for $name", "waits 5 minutes for alice")).toBe(false);
    expect(titleMatches("${…}: a rerun converges", "a fresh apply: a rerun converges")).toBe(true);
    expect(titleMatches("a (b) [c]. d?", "a (b) [c]. d?")).toBe(true);
    expect(titleMatches("a (b) [c]. d?", "a b c. d")).toBe(false);
  });

  it("accepts a chain from the top level down to a test that runs", () => {
    expect(chainProblem(tree, ["ScopeLock", "lets one holder in"])).toBeUndefined();
    expect(chainProblem(tree, ["ScopeLock", "waits %s seconds for $name"])).toBeUndefined();
    expect(chainProblem(tree, ["ScopeLock", "a fresh apply: a rerun converges"])).toBeUndefined();
    expect(chainProblem(tree, ["ScopeLock", "under contention", "never has two holders"])).toBeUndefined();
    expect(chainProblem(tree, ["dinit (skipped)", "serves"])).toBeUndefined();
  });

  it("refuses a wrong title, a wrong nesting, a describe, and a skipped test", () => {
    expect(chainProblem(tree, ["ScopeLock", "lets two holders in"])).toMatch(/no describe or test titled "lets two holders in" inside "ScopeLock"/);
    expect(chainProblem(tree, ["ScopeLock", "never has two holders"])).toMatch(/no describe or test/);
    expect(chainProblem(tree, ["under contention", "never has two holders"])).toMatch(/at the top level/);
    expect(chainProblem(tree, ["ScopeLock", "under contention"])).toMatch(/is a describe, not a test/);
    expect(chainProblem(tree, ["ScopeLock", "is not written yet"])).toMatch(/skipped or a todo/);
  });

  it("reads chains, siblings after a comma, new chains after a semicolon, and stops at a cell's end", () => {
    const line =
      '| G7 | text | `a/x.test.ts` › "D" › "t1", › "t2" (a remark); › "E" › "F" › "t3"; `b/y.test.ts` › "G" › "t4" | — | `c.test.ts` |';
    expect(findTestCitations("d.md", line).map((c) => [c.file, ...c.chain])).toEqual([
      ["a/x.test.ts", "D", "t1"],
      ["a/x.test.ts", "D", "t2"],
      ["a/x.test.ts", "E", "F", "t3"],
      ["b/y.test.ts", "G", "t4"],
    ]);
    expect(findTestCitations("d.md", 'see › "a title" with no file').map((c) => c.file)).toEqual([""]);
    expect(findTestCitations("d.md", `\`a.test.ts\` › "D" › 'restart = "no": stays down'`).map((c) => c.chain)).toEqual([["D", 'restart = "no": stays down']]);
  });

  it("reports a test file, a linked file and a repo path that do not exist", () => {
    const markdown = [
      '`repo-checks/nowhere.test.ts` › "a" › "b"',
      "[gone](../packages/nowhere.ts) and [outside](../../../etc/passwd) and [web](https://example.com) and [here](#x)",
      "`packages/core/src/nowhere.ts`",
    ].join("\n");
    expect(findFileReferences("docs/x.md", markdown).map((r) => r.target)).toEqual(["repo-checks/nowhere.test.ts", "packages/nowhere.ts", "../../etc/passwd", "packages/core/src/nowhere.ts"]);
    expect(citationProblems(REPO, "docs/x.md", markdown)).toEqual([
      "docs/x.md:1: repo-checks/nowhere.test.ts does not exist",
      "docs/x.md:1: `repo-checks/nowhere.test.ts` points at no file in the repo",
      "docs/x.md:2: [gone](../packages/nowhere.ts) points at no file in the repo",
      "docs/x.md:2: [outside](../../../etc/passwd) points at no file in the repo",
      "docs/x.md:3: `packages/core/src/nowhere.ts` points at no file in the repo",
    ]);
  });

  it("checks this file's own citation of itself", () => {
    const markdown = '`repo-checks/test-citations.test.ts` › "the citation check\'s own rules" › "checks this file\'s own citation of itself"';
    expect(citationProblems(REPO, "docs/x.md", markdown)).toEqual([]);
    expect(citationProblems(REPO, "docs/x.md", markdown.replace("itself", "another"))).toHaveLength(1);
  });
});
