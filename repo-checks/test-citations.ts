// The tests and files the docs cite, and whether each is real.
//
// A citation is a test file in backticks followed by its titles, outermost first:
//   `path/to/x.test.ts` › "describe title" › "it title"
// (a title holding `"` is quoted with `'` instead).
// After one path, `, › "t"` cites a sibling of the last title and `; › "d" › "t"` starts again
// from the file's top level; other text between titles (a remark in parentheses) is ignored, and
// a table cell's `|` ends the list. Each chain must be a test in that file: the first title at its
// top level, each next one inside the one before, the last an `it`/`test` that runs (not skipped
// or todo). Source titles are read from the syntax tree: string literals, constants of the same
// file, both sides of `c ? a : b`; a template literal's `${…}`, an `each` title's `%s`-style and
// `$name` placeholders match any text. Links and repo paths in backticks must name a file in the repo.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import ts from "typescript";

export interface TestCitation {
  doc: string;
  line: number;
  file: string;
  /** Titles from the file's top level down to the test. */
  chain: string[];
}

export interface FileReference {
  doc: string;
  line: number;
  /** Repo-relative path the reference points at. */
  target: string;
  /** How it was written: a markdown link, or a repo path in backticks. */
  written: string;
}

const TOKEN = /`([\w@./-]+\.test\.ts)`|›\s*(?:"([^"]*)"|'([^']*)')|\|/g;

export function findTestCitations(doc: string, markdown: string): TestCitation[] {
  const citations: TestCitation[] = [];
  markdown.split("\n").forEach((text, index) => {
    let file: string | undefined;
    let chain: string[] = [];
    let gapStart = 0;
    const flush = () => {
      if (file && chain.length > 0) citations.push({ doc, line: index + 1, file, chain });
    };
    for (const match of text.matchAll(TOKEN)) {
      const gap = text.slice(gapStart, match.index);
      gapStart = match.index + match[0].length;
      if (match[0] === "|" || match[1] !== undefined) {
        flush();
        file = match[1];
        chain = [];
        continue;
      }
      const title = match[2] ?? match[3]!;
      if (file === undefined) {
        citations.push({ doc, line: index + 1, file: "", chain: [title] });
      } else if (chain.length === 0) {
        chain = [title];
      } else if (gap.includes(";")) {
        flush();
        chain = [title];
      } else if (gap.includes(",")) {
        flush();
        chain = [...chain.slice(0, -1), title];
      } else {
        chain.push(title);
      }
    }
    flush();
  });
  return citations;
}

const REPO_PATH = /`((?:packages|integration|repo-checks|bench|docs|examples)\/[\w@./-]*[\w-]\.[a-z]+)`/g;
const LINK = /\[[^\]]*\]\(([^)\s]+)\)/g;

/** Markdown links to files and repo paths in backticks, each resolved from the repo root. */
export function findFileReferences(doc: string, markdown: string): FileReference[] {
  const references: FileReference[] = [];
  markdown.split("\n").forEach((text, index) => {
    for (const [written, path] of text.matchAll(REPO_PATH)) references.push({ doc, line: index + 1, target: path!, written });
    for (const [written, link] of text.matchAll(LINK)) {
      if (/^([a-z]+:|#)/.test(link!)) continue;
      const target = normalize(join(dirname(doc), decodeURI(link!.replace(/#.*$/, ""))));
      references.push({ doc, line: index + 1, target, written });
    }
  });
  return references;
}

export interface TestNode {
  /** The title as written, with `${…}` where the source computes part of it; a `c ? a : b` title has both. */
  titles: string[];
  kind: "describe" | "test";
  /** Skipped unconditionally or a todo: it proves nothing. */
  inert: boolean;
  children: TestNode[];
}

const SUITE = new Set(["describe", "suite"]);
const TEST = new Set(["it", "test"]);

/** The describe/it tree of a test file, as nested in its source. */
export function readTestTree(source: string): TestNode[] {
  const file = ts.createSourceFile("x.test.ts", source, ts.ScriptTarget.Latest, true);
  const constants = new Map<string, ts.Expression>();
  const roots: TestNode[] = [];
  const collect = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) constants.set(node.name.text, node.initializer);
    ts.forEachChild(node, collect);
  };
  collect(file);
  const visit = (node: ts.Node, into: TestNode[]) => {
    const found = ts.isCallExpression(node) ? testCall(node, constants) : undefined;
    if (found) {
      into.push(found);
      ts.forEachChild(node, (child) => visit(child, found.children));
    } else {
      ts.forEachChild(node, (child) => visit(child, into));
    }
  };
  visit(file, roots);
  return roots;
}

function testCall(call: ts.CallExpression, constants: Map<string, ts.Expression>): TestNode | undefined {
  const first = call.arguments[0];
  if (!first) return undefined;
  let callee: ts.Expression = call.expression;
  const modifiers: string[] = [];
  while (ts.isPropertyAccessExpression(callee) || ts.isCallExpression(callee)) {
    if (ts.isPropertyAccessExpression(callee)) modifiers.push(callee.name.text);
    callee = ts.isPropertyAccessExpression(callee) ? callee.expression : callee.expression;
  }
  if (!ts.isIdentifier(callee) || !(SUITE.has(callee.text) || TEST.has(callee.text))) return undefined;
  const titles = titlesOf(first, constants);
  if (titles.length === 0) return undefined;
  const inert = modifiers.includes("skip") || modifiers.includes("todo");
  return { titles, kind: SUITE.has(callee.text) ? "describe" : "test", inert, children: [] };
}

/** The texts a title can have; parts the source computes become `${…}`; none when nothing of it is literal. */
function titlesOf(node: ts.Expression, constants: Map<string, ts.Expression>, depth = 0): string[] {
  if (depth > 5) return [];
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isTemplateExpression(node)) return [node.head.text + node.templateSpans.map((span) => "${…}" + span.literal.text).join("")];
  if (ts.isParenthesizedExpression(node)) return titlesOf(node.expression, constants, depth + 1);
  if (ts.isConditionalExpression(node)) return [...titlesOf(node.whenTrue, constants, depth + 1), ...titlesOf(node.whenFalse, constants, depth + 1)];
  if (ts.isIdentifier(node)) {
    const value = constants.get(node.text);
    return value ? titlesOf(value, constants, depth + 1) : [];
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const [left, right] = [titlesOf(node.left, constants, depth + 1), titlesOf(node.right, constants, depth + 1)];
    if (left.length === 0 && right.length === 0) return [];
    return (left.length ? left : ["${…}"]).flatMap((l) => (right.length ? right : ["${…}"]).map((r) => l + r));
  }
  return [];
}

const PLACEHOLDER = /\$\{…\}|%[sdifjoO#%$]|\$[A-Za-z_][\w.]*/g;

/** Whether a title in the docs is this source title: literally, or with its placeholders as wildcards. */
export function titleMatches(sourceTitle: string, cited: string): boolean {
  if (sourceTitle === cited) return true;
  const parts = sourceTitle.split(PLACEHOLDER).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  if (parts.length === 1) return false;
  return new RegExp(`^${parts.join(".*")}$`, "s").test(cited);
}

/** Why a cited chain is not a running test of the tree, or undefined when it is one. */
export function chainProblem(tree: TestNode[], chain: string[]): string | undefined {
  let level = tree;
  let reached: TestNode[] = [];
  for (const [depth, title] of chain.entries()) {
    const matching = level.filter((node) => node.titles.some((t) => titleMatches(t, title)));
    if (matching.length === 0) {
      const where = depth === 0 ? "at the top level" : `inside "${chain[depth - 1]}"`;
      return `no describe or test titled "${title}" ${where}`;
    }
    reached = matching;
    level = matching.flatMap((node) => node.children);
  }
  const tests = reached.filter((node) => node.kind === "test");
  if (tests.length === 0) return `"${chain.at(-1)}" is a describe, not a test`;
  if (tests.every((node) => node.inert)) return `"${chain.at(-1)}" is skipped or a todo`;
  return undefined;
}

/** What is wrong with each citation and reference of one doc, as `doc:line: problem`. */
export function citationProblems(repo: string, doc: string, markdown: string): string[] {
  const problems: string[] = [];
  const trees = new Map<string, TestNode[]>();
  for (const citation of findTestCitations(doc, markdown)) {
    const at = `${doc}:${citation.line}`;
    if (citation.file === "") {
      problems.push(`${at}: › "${citation.chain[0]}" follows no test file`);
      continue;
    }
    const path = join(repo, citation.file);
    if (!existsSync(path)) {
      problems.push(`${at}: ${citation.file} does not exist`);
      continue;
    }
    if (!trees.has(citation.file)) trees.set(citation.file, readTestTree(readFileSync(path, "utf8")));
    const problem = chainProblem(trees.get(citation.file)!, citation.chain);
    if (problem) problems.push(`${at}: ${citation.file}: ${problem}`);
  }
  for (const reference of findFileReferences(doc, markdown)) {
    if (reference.target.startsWith("..") || !existsSync(join(repo, reference.target))) {
      problems.push(`${doc}:${reference.line}: ${reference.written} points at no file in the repo`);
    }
  }
  return problems;
}
