/** Where a value sits in a text: `text.slice(start, end)`. */
export interface Span {
  start: number;
  end: number;
}

const ASSIGNMENT = /(["']?)\b([A-Za-z_][A-Za-z0-9_]*)=/g;
const PLIST_ENTRY = /<key>([^<]*)<\/key>\s*<string>([^<]*)<\/string>/g;

/**
 * The values assigned to secret-looking names in a file's text, whatever wrote it: an admin's
 * hand edit, a file tend adopts, the bytes an older spec rendered. The forms each init's files
 * use: `Environment="NAME=value"` (systemd) and `"NAME=value"` (dinit's env), where the value runs
 * to the closing quote; `export NAME=value` with shell quoting (runit, OpenRC, s6, cron), to the
 * first unquoted blank; `NAME=value`, to a blank; and a plist's `<key>NAME</key><string>value`.
 */
export function secretSpans(text: string, secretName: RegExp): Span[] {
  const spans: Span[] = [];
  for (const match of text.matchAll(ASSIGNMENT)) {
    if (!secretName.test(match[2]!)) continue;
    const start = match.index + match[0].length;
    const end = match[1] ? closingQuote(text, start, match[1]) : shellWordEnd(text, start);
    if (end > start) spans.push({ start, end });
  }
  for (const match of text.matchAll(PLIST_ENTRY)) {
    if (!secretName.test(match[1]!) || match[2] === "") continue;
    const end = match.index + match[0].length - "</string>".length;
    spans.push({ start: end - match[2]!.length, end });
  }
  return spans.sort((a, b) => a.start - b.start);
}

/** The index of the quote that closes a value begun inside `quote` (a backslash escapes in `"`). */
function closingQuote(text: string, at: number, quote: string): number {
  for (let i = at; i < text.length; i++) {
    if (text[i] === "\n") return i;
    if (quote === '"' && text[i] === "\\") i++;
    else if (text[i] === quote) return i;
  }
  return text.length;
}

/** The end of a shell word: quoted parts, backslash escapes, up to a blank outside quotes. */
function shellWordEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length && !/[\s;&|]/.test(text[i]!)) {
    if (text[i] === "\\") i += 2;
    else if (text[i] === "'" || text[i] === '"') i = closingQuote(text, i + 1, text[i]!) + 1;
    else i++;
  }
  return Math.min(i, text.length);
}
