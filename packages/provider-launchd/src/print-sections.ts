/**
 * Reading `launchctl print` text. Apple calls it "NOT API": fields come and go between releases,
 * so these readers look only at what they need, by structure (a block and its own closing brace,
 * the top level of a job), never by line number or column.
 */

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/**
 * The lines inside `<name> = {` up to that block's own closing brace (the next `}` at the
 * header's indentation or less), or undefined when there is no such block or it never closes.
 */
export function blockLines(text: string, name: string): string[] | undefined {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.trim() === `${name} = {`);
  if (start < 0) return undefined;
  const indent = indentOf(lines[start]!);
  const inside: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === "}" && indentOf(line) <= indent) return inside;
    inside.push(line);
  }
  return undefined;
}

/**
 * The `key = value` lines at the top level of a printed job (`gui/501/tend.web = { … }`): the
 * least-indented lines inside the outermost block. Nested blocks (endpoints, coalitions, the
 * environment) repeat keys such as `state`, and are skipped. First occurrence wins.
 */
export function topLevelEntries(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  const lines = text.split("\n");
  const start = lines.findIndex((line) => /=\s*\{\s*$/.test(line));
  if (start < 0) return entries;
  const indent = indentOf(lines[start]!);
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === "}" && indentOf(line) <= indent) break;
    if (line.trim() !== "") body.push(line);
  }
  const top = Math.min(...body.map(indentOf));
  for (const line of body) {
    if (indentOf(line) !== top) continue;
    const match = /^(.+?) = (.*)$/.exec(line.trim());
    if (!match || match[2] === "{" || entries.has(match[1]!)) continue;
    entries.set(match[1]!, match[2]!);
  }
  return entries;
}
