/**
 * Reading a command line as POSIX sh would, without running a shell: a simple command (words,
 * with quotes and backslashes) becomes its argument list exactly as sh would pass it; anything a
 * shell would have to interpret — an expansion (`$`, `` ` ``), a glob, `~`, a redirect, a pipe, a
 * list (`;`, `&&`, `||`, `&`), a subshell or group, a comment, a leading assignment or reserved
 * word — is shell syntax.
 */
export type ShellWords = { kind: "words"; words: string[] } | { kind: "syntax" } | { kind: "error"; why: string };

const OPERATORS = new Set(["|", "&", ";", "<", ">", "(", ")"]);
const GLOB = new Set(["*", "?", "["]);
const RESERVED = new Set(["!", "{", "}", "case", "do", "done", "elif", "else", "esac", "fi", "for", "if", "in", "then", "until", "while"]);
const BLANK = /[ \t]/;
/**
 * Shell builtins: `exec` can only run a program, so `exec exit 3` fails, and a builtin such as
 * `echo` behaves differently from the program of the same name. A script ending in one is left alone.
 */
const BUILTINS = new Set([
  ":", ".", "[", "alias", "bg", "break", "cd", "command", "continue", "echo", "eval", "exec", "exit", "export", "false", "fc", "fg", "getopts",
  "hash", "jobs", "kill", "local", "newgrp", "printf", "pwd", "read", "readonly", "return", "set", "shift", "source", "test", "times", "trap",
  "true", "type", "ulimit", "umask", "unalias", "unset", "wait",
]);

export function shellWords(line: string): ShellWords {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let i = 0;
  const end = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  while (i < line.length) {
    const ch = line[i]!;
    if (BLANK.test(ch)) {
      end();
      i += 1;
      continue;
    }
    if (ch === "'") {
      const close = line.indexOf("'", i + 1);
      if (close < 0) return { kind: "error", why: "it has a `'` that is never closed" };
      word += line.slice(i + 1, close);
      inWord = true;
      i = close + 1;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      for (;;) {
        if (j >= line.length) return { kind: "error", why: 'it has a `"` that is never closed' };
        const c = line[j]!;
        if (c === '"') break;
        if (c === "$" || c === "`") return { kind: "syntax" };
        if (c === "\\" && j + 1 < line.length && '$`"\\'.includes(line[j + 1]!)) {
          word += line[j + 1];
          j += 2;
          continue;
        }
        word += c;
        j += 1;
      }
      inWord = true;
      i = j + 1;
      continue;
    }
    if (ch === "\\") {
      // A backslash that ends the line stands for itself, as in sh.
      word += i + 1 < line.length ? line[i + 1] : "\\";
      inWord = true;
      i += 2;
      continue;
    }
    if (OPERATORS.has(ch) || ch === "$" || ch === "`" || GLOB.has(ch)) return { kind: "syntax" };
    if (!inWord && (ch === "#" || ch === "~")) return { kind: "syntax" };
    word += ch;
    inWord = true;
    i += 1;
  }
  end();
  if (words.length === 0) return { kind: "syntax" };
  // Only an unquoted first word is a reserved word (`if`, `!`) or an assignment (`A=1 cmd`).
  const rawFirst = line.trimStart().split(BLANK)[0] ?? "";
  if (RESERVED.has(rawFirst) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(rawFirst)) return { kind: "syntax" };
  return { kind: "words", words };
}

/**
 * A script with `exec` before its last command, where that is the same script: the shell then
 * becomes the program, so the init supervises and signals the program itself. Left alone when
 * the last command is part of a pipeline, runs in the background, is a compound command, a
 * function, a subshell or a shell builtin, starts with an assignment, or when the script sets
 * traps (which exec would drop).
 */
export function execLastCommand(script: string): string {
  const parts = topLevelParts(script);
  if (parts === undefined) return script;
  const last = parts.at(-1)!;
  const before = parts.length > 1 ? parts.at(-2)!.separator : undefined;
  const text = last.text.trim();
  if (text === "" || last.separator !== undefined) return script;
  if (before === "|" || before === "&") return script;
  if (parts.some((p) => /^\s*trap\b/.test(p.text))) return script;
  const first = text.split(/[ \t]+/)[0]!;
  if (RESERVED.has(first) || BUILTINS.has(first) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(first) || /[(){}]/.test(first)) return script;
  const offset = last.start + last.text.indexOf(text);
  return `${script.slice(0, offset)}exec ${script.slice(offset)}`;
}

/**
 * Whether a script already ends by replacing the shell with a program: its last command, run by
 * the shell itself (not in a pipeline or the background), is `exec` with a command to run, not
 * only redirections (`exec >log` keeps the shell).
 */
export function endsInExec(script: string): boolean {
  const parts = topLevelParts(script);
  if (parts === undefined) return false;
  const last = parts.at(-1)!;
  const before = parts.length > 1 ? parts.at(-2)!.separator : undefined;
  if (last.separator !== undefined || before === "|" || before === "&") return false;
  const [first, ...rest] = last.text.trim().split(/[ \t]+/);
  if (first !== "exec") return false;
  for (let i = 0; i < rest.length; i += 1) {
    if (/^[0-9]*[<>]+[&|]?$/.test(rest[i]!)) i += 1;
    else if (!/^[0-9]*[<>]/.test(rest[i]!)) return true;
  }
  return false;
}

interface Part {
  text: string;
  start: number;
  /** What ends it: `;`, `&&`, `||`, `|`, `&`; undefined for the last part. */
  separator?: string;
}

/** The script cut at its top-level separators (outside quotes, `$( )`, `` ` ``, `( )` and `{ }`); undefined when it cannot be read. */
function topLevelParts(script: string): Part[] | undefined {
  const parts: Part[] = [];
  let depth = 0;
  let start = 0;
  let i = 0;
  const cut = (separator: string, width: number) => {
    parts.push({ text: script.slice(start, i), start, separator });
    i += width;
    start = i;
  };
  while (i < script.length) {
    const ch = script[i]!;
    if (ch === "\\") {
      i += 2;
      continue;
    }
    if (ch === "'") {
      const close = script.indexOf("'", i + 1);
      if (close < 0) return undefined;
      i = close + 1;
      continue;
    }
    if (ch === '"' || ch === "`") {
      let j = i + 1;
      while (j < script.length && script[j] !== ch) j += script[j] === "\\" ? 2 : 1;
      if (j >= script.length) return undefined;
      i = j + 1;
      continue;
    }
    if (ch === "(" || ch === "{") depth += 1;
    if (ch === ")" || ch === "}") depth -= 1;
    if (depth > 0) {
      i += 1;
      continue;
    }
    const two = script.slice(i, i + 2);
    if (two === "&&" || two === "||") cut(two, 2);
    else if (ch === ";" || ch === "|" || (ch === "&" && script[i - 1] !== ">" && script[i + 1] !== ">")) cut(ch, 1);
    else i += 1;
  }
  if (depth !== 0) return undefined;
  parts.push({ text: script.slice(start), start });
  // A trailing separator leaves an empty last part: `a &` runs in the background, `a;` is `a`.
  const tail = parts.at(-1)!;
  if (tail.text.trim() === "" && parts.length > 1) {
    const before = parts.at(-2)!;
    if (before.separator === ";") {
      parts.pop();
      delete before.separator;
    } else return undefined;
  }
  return parts;
}
