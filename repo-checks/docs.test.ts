// Every spec and command in README.md and docs/ works as shown (see doc-blocks.ts for the rules).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allDocBlocks, looksRunnable, parseDocBlocks, REPO, type DocBlock } from "./doc-blocks.js";
import { matchesShown, prepareFolder, runDocCommands, shownOutputs, specFileName } from "./run-doc-block.js";

const blocks = allDocBlocks();
const where = (block: DocBlock) => `${block.doc}:${block.line}`;

/** The spec a run block works with: the last spec before it in the same document. */
function specBefore(block: DocBlock): DocBlock | undefined {
  if (block.options.spec === "none") return undefined;
  return blocks.filter((b) => b.doc === block.doc && b.kind === "spec" && b.line < block.line).at(-1);
}

describe("the docs' code blocks", () => {
  it("finds the blocks of README.md and every docs/*.md", () => {
    expect(new Set(blocks.map((b) => b.doc))).toContain("README.md");
    expect(blocks.filter((b) => b.kind === "spec").length).toBeGreaterThan(2);
    expect(blocks.filter((b) => b.kind === "run").length).toBeGreaterThan(2);
  });

  it("says of every block what it is, and calls no spec or command an illustration", () => {
    const unclassified = blocks.filter((b) => b.kind === undefined).map(where);
    expect(unclassified, "add <!-- doc-test: KIND --> before these blocks (see repo-checks/doc-blocks.ts)").toEqual([]);
    const hidden = blocks.filter((b) => b.kind === "illustration" && looksRunnable(b)).map(where);
    expect(hidden).toEqual([]);
  });

  it.each(blocks.filter((b) => b.kind === "spec").map((b) => [where(b), b] as const))("%s: the spec validates", (_where, block) => {
    const folder = prepareFolder(block);
    const [run] = runDocCommands({ ...block, lang: "console", text: `$ tend validate -f ${specFileName(block)}\n`, options: {} }, block, folder);
    expect(run!.exitCode, run!.output).toBe(Number(block.options.exit ?? 0));
  });

  it.each(blocks.filter((b) => b.kind === "run").map((b) => [where(b), b] as const))("%s: every command exits and prints as shown", (_where, block) => {
    const runs = runDocCommands(block, specBefore(block));
    const shown = shownOutputs(block);
    runs.forEach((run, i) => {
      expect(run.exitCode, `${run.command}\n${run.output}`).toBe(Number(block.options.exit ?? 0));
      expect(matchesShown(run.output, shown[i]!), `${run.command} printed:\n${run.output}\nthe docs show:\n${shown[i]}`).toBe(true);
    });
  });

  it.each(blocks.filter((b) => b.kind === "proven-by").map((b) => [where(b), b] as const))("%s: the test that runs it calls it by its id", (_where, block) => {
    const by = block.options.by;
    expect(by, "proven-by needs by=FILE").toBeTruthy();
    expect(existsSync(join(REPO, by!)), `${by} exists`).toBe(true);
    const source = readFileSync(join(REPO, by!), "utf8");
    if (by === ".ci/run") {
      // CI's own entry runs the command: the docs' test command is what CI runs
      for (const line of block.text.split("\n").filter(Boolean)) expect(source.split("\n").map((l) => l.trim())).toContain(line.trim());
    } else {
      expect(block.options.id, "proven-by needs id=ID").toBeTruthy();
      const call = `docBlock(${JSON.stringify(block.doc)}, ${JSON.stringify(block.options.id)})`;
      expect(source.includes(call), `${by} calls ${call}`).toBe(true);
    }
  });

  it.each(blocks.filter((b) => b.kind === "excerpt").map((b) => [where(b), b] as const))("%s: the excerpt is what the file says", (_where, block) => {
    const from = block.options.from;
    expect(from, "excerpt needs from=FILE").toBeTruthy();
    if (block.lang === "json") {
      // a fragment of a JSON file: every key it shows has the value it shows there
      const fragment = JSON.parse(block.text.trim().startsWith("{") ? block.text : `{${block.text}}`) as unknown;
      expect(JSON.parse(readFileSync(join(REPO, from!), "utf8"))).toMatchObject(fragment as object);
      return;
    }
    const lines = readFileSync(join(REPO, from!), "utf8").split("\n").map((l) => l.trim());
    let at = 0;
    for (const line of block.text.split("\n").map((l) => l.trim()).filter((l) => l && l !== "…")) {
      const found = lines.indexOf(line, at);
      expect(found, `${from} has, after line ${at}: ${line}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
  });
});

describe("the docs test's own rules", () => {
  it("classifies by directive, or by what the block is", () => {
    const parsed = parseDocBlocks("x.md", [
      "```ts", "export default [];", "```",
      "<!-- doc-test: proven-by id=install by=a.test.ts -->", "```sh", "npm install x", "```",
      "```console", "$ tend plan", "```",
      "```sh", "rm -rf /", "```",
    ].join("\n"));
    expect(parsed.map((b) => [b.kind, b.options])).toEqual([["spec", {}], ["proven-by", { id: "install", by: "a.test.ts" }], ["run", {}], [undefined, {}]]);
    expect(looksRunnable(parsed[3]!)).toBe(true);
  });

  it("matches output line for line, with … for any lines or characters", () => {
    expect(matchesShown("a\nb\nc\n", "a\nb\nc\n")).toBe(true);
    expect(matchesShown("a\nb\nc\n", "a\nc\n")).toBe(false);
    expect(matchesShown("a\nb\nc\n", "a\n…\nc\n")).toBe(true);
    expect(matchesShown("a\nc\n", "a\n…\nc\n")).toBe(true);
    expect(matchesShown("tend-x@0.3.1  service\n", "tend-x@…  service\n")).toBe(true);
    expect(matchesShown("tend-x@0.3.1  timer\n", "tend-x@…  service\n")).toBe(false);
    expect(matchesShown("", "")).toBe(true);
    expect(matchesShown("x\n", "")).toBe(false);
  });
});
