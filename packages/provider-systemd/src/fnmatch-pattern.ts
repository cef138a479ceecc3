/**
 * A shell-style pattern as `fnmatch(3)` reads it with `FNM_NOESCAPE` and no other flag (how
 * systemd matches preset rules and `list-unit-files` patterns): `*` any run of characters, `/`
 * included; `?` one character; `[…]` a set, `!` or `^` first negating it, `a-z` a range, a
 * leading `]` itself; a backslash is an ordinary character. Undefined for what this does not
 * read (a character class such as `[[:alpha:]]`, an unclosed `[`), so a caller can ask the tool
 * that does.
 */
export function fnmatchPattern(pattern: string): RegExp | undefined {
  let source = "";
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i]!;
    if (c === "*") source += "[\\s\\S]*";
    else if (c === "?") source += "[\\s\\S]";
    else if (c === "[") {
      const set = readSet(pattern, i + 1);
      if (!set) return undefined;
      source += set.source;
      i = set.end;
    } else source += escapeChar(c);
  }
  return new RegExp(`^${source}$`);
}

function readSet(pattern: string, start: number): { source: string; end: number } | undefined {
  let i = start;
  let negate = false;
  if (pattern[i] === "!" || pattern[i] === "^") {
    negate = true;
    i += 1;
  }
  let body = "";
  let first = true;
  for (; i < pattern.length; i += 1) {
    const c = pattern[i]!;
    if (c === "]" && !first) return { source: `[${negate ? "^" : ""}${body}]`, end: i };
    if (c === "[" && pattern[i + 1] === ":") return undefined;
    first = false;
    if (pattern[i + 1] === "-" && pattern[i + 2] !== undefined && pattern[i + 2] !== "]") {
      body += `${escapeChar(c)}-${escapeChar(pattern[i + 2]!)}`;
      i += 2;
    } else body += escapeChar(c);
  }
  return undefined;
}

function escapeChar(c: string): string {
  return /[\\^$.*+?()[\]{}|\/-]/.test(c) ? `\\${c}` : c;
}
