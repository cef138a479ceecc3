// The fenced code blocks of README.md and docs/*.md, each with what the docs test does with it.
//
// A block is classified by an HTML comment on the line just before its fence,
//   <!-- doc-test: KIND key=value … -->
// or, without one, by what it is: a ts/js block with `export default` and a yaml block with
// `tend: v1alpha1` are specs; a console block whose commands are `tend …` is run. Every other
// block must say what it is, so that no command or spec in the docs goes unchecked.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const REPO = new URL("..", import.meta.url).pathname;

export type DocTestKind =
  /** A spec: `tend validate` must accept it; console blocks after it in the same file run against it. */
  | "spec"
  /** `$ tend …` lines, each run against the current spec; the lines after each are its output. */
  | "run"
  /** A command another test runs: `by=FILE` names it, and FILE calls docBlock(doc, id). */
  | "proven-by"
  /** Lines copied from a file in the repo (`from=FILE`): each must appear there, in order. */
  | "excerpt"
  /** A picture (a folder tree, a fragment of JSON): neither a spec nor a command. */
  | "illustration";

export interface DocBlock {
  /** Repo-relative path of the markdown file. */
  doc: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  text: string;
  kind: DocTestKind | undefined;
  options: Record<string, string>;
}

const DIRECTIVE = /^<!--\s*doc-test:\s*([a-z-]+)((?:\s+[a-z]+=\S+)*)\s*-->$/;

export function docFiles(): string[] {
  const docs = readdirSync(join(REPO, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs.sort()];
}

export function parseDocBlocks(doc: string, markdown: string): DocBlock[] {
  const lines = markdown.split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i += 1; i < lines.length && lines[i] !== "```"; i += 1) body.push(lines[i]!);
    if (i >= lines.length) throw new Error(`${doc}:${start + 1}: a code fence that never closes`);
    const directive = DIRECTIVE.exec(lines[start - 1] ?? "");
    const options: Record<string, string> = {};
    for (const pair of (directive?.[2] ?? "").trim().split(/\s+/).filter(Boolean)) {
      const eq = pair.indexOf("=");
      options[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    const text = body.join("\n") + "\n";
    const lang = open[1] ?? "";
    blocks.push({ doc, line: start + 1, lang, text, kind: (directive?.[1] as DocTestKind | undefined) ?? implicitKind(lang, text), options });
  }
  return blocks;
}

function implicitKind(lang: string, text: string): DocTestKind | undefined {
  if (/^(ts|js|mjs)$/.test(lang) && /^export default /m.test(text)) return "spec";
  if (lang === "yaml" && /^tend: v1alpha1$/m.test(text)) return "spec";
  if (lang === "console" && /^\$ (sudo )?tend /m.test(text)) return "run";
  return undefined;
}

/** Whether a block looks like something that must be checked (a spec or a command). */
export function looksRunnable(block: DocBlock): boolean {
  return /^\$ /m.test(block.text) || /defineConfig\(|^tend: v1alpha1$/m.test(block.text) || /^(sh|bash|shell|console)$/.test(block.lang);
}

export function allDocBlocks(): DocBlock[] {
  return docFiles().flatMap((doc) => parseDocBlocks(doc, readFileSync(join(REPO, doc), "utf8")));
}

/** The block a test runs for the docs: `<!-- doc-test: proven-by id=ID by=FILE -->`. */
export function docBlock(doc: string, id: string): DocBlock {
  const found = parseDocBlocks(doc, readFileSync(join(REPO, doc), "utf8")).filter((block) => block.options.id === id);
  if (found.length !== 1) throw new Error(`${doc}: ${found.length} blocks with id=${id}, expected one`);
  return found[0]!;
}

/** The commands of a shell or console block: `$ ` lines (or every line of a sh block), without comments. */
export function blockCommands(block: DocBlock): string[] {
  const lines = block.text.split("\n").filter(Boolean);
  const commands = block.lang === "console" ? lines.filter((l) => l.startsWith("$ ")).map((l) => l.slice(2)) : lines;
  return commands.map((line) => line.replace(/\s+#.*$/, "").trim()).filter(Boolean);
}
