/** Tokens dinit reads back unchanged without quotes: no whitespace, `"`, `\`, `#` or `$`. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Quotes one argument for a dinit setting value (`command = …`, `logfile = …`), so dinit hands
 * the program exactly `token`. dinit first splits the value into words (double quotes group,
 * a backslash escapes the next character even inside quotes, `#` after white space starts a
 * comment), then substitutes `$NAME` in the result — inside quotes too — where `$$` stands for a
 * literal `$` (dinit-service(5), "VARIABLE SUBSTITUTION"). So every `$` is doubled, and anything
 * that is not plain goes in double quotes with `\` and `"` backslash-escaped.
 */
export function quoteDinitToken(token: string): string {
  if (PLAIN.test(token)) return token;
  const escaped = token.replace(/[\\"]/g, (char) => `\\${char}`).replace(/\$/g, () => "$$");
  return `"${escaped}"`;
}
