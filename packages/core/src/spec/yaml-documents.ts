/**
 * A YAML stream cut into its documents' texts, without parsing it: at every line that starts
 * with the document marker `---` (then a space, a tab or the line's end). YAML forbids such a line
 * inside any scalar (it is `c-forbidden` content), so each cut is where a parser would start a new
 * document, and each piece parses alone as it does within the stream (anchors reach only within
 * a document). Undefined for a stream this cannot vouch for: directives (`%YAML`), a document end
 * marker (`...`, after which a document may start without `---`), a byte order mark, or a
 * carriage return or Unicode line separator (line ends that YAML and this regular expression
 * count differently).
 */
export function splitYamlDocuments(text: string): string[] | undefined {
  if (text.startsWith("\uFEFF") || /[\r\u2028\u2029]/.test(text) || /^(%|\.\.\.(?:[ \t]|$))/m.test(text)) return undefined;
  const pieces: string[] = [];
  let start = 0;
  for (const match of text.matchAll(/^---(?=[ \t]|$)/gm)) {
    if (match.index === 0) continue;
    pieces.push(text.slice(start, match.index));
    start = match.index;
  }
  pieces.push(text.slice(start));
  return pieces;
}
