import { createTwoFilesPatch } from "diff";
import { secretSpans, type Span } from "./secret-spans.js";

/** The secret values of a resource's previous and current versions. */
export interface Secrets {
  before: string[];
  after: string[];
}

/**
 * A unified diff of one file or link from what the host holds to what tend writes (`--diff`),
 * with every secret value replaced by `********` before the lines are compared, so a secret
 * never reaches a terminal or a CI log: the spec's secret `env` values wherever they appear, and
 * any value a file's text assigns to a name `secretName` matches (a hand edit, an adopted file).
 */
export function unifiedDiff(path: string, before: string | null, after: string | null, secretName: RegExp, secrets: Secrets = { before: [], after: [] }): string {
  const spans = { before: secretSpans(before ?? "", secretName), after: secretSpans(after ?? "", secretName) };
  const assigned = (text: string | null, at: Span[]) => at.map((span) => text!.slice(span.start, span.end));
  const spec = [...new Set([...secrets.before, ...secrets.after])];
  // Each side's secrets are those its text holds: the spec's that appear in it, and its own assignments.
  const beforeValues = new Set([...spec.filter((v) => before?.includes(v)), ...assigned(before, spans.before)]);
  const afterValues = new Set([...spec.filter((v) => after?.includes(v)), ...assigned(after, spans.after)]);
  // A secret in both versions reads the same on both sides (no change shown); one that changed
  // shows as changed, without either value.
  const markers = new Map<string, string>();
  for (const value of beforeValues) markers.set(value, afterValues.has(value) ? "********" : "********(was)");
  for (const value of afterValues) if (!markers.has(value)) markers.set(value, "********(now)");
  // Values found in place are masked in place (however short); the spec's wherever they appear.
  const ordered = [...markers].filter(([value]) => spec.includes(value)).sort((a, b) => b[0].length - a[0].length);
  const mask = (text: string | null, at: Span[]) => {
    let out = "";
    let from = 0;
    for (const span of at) {
      if (span.start < from) continue;
      const value = text!.slice(span.start, span.end);
      out += text!.slice(from, span.start) + markers.get(value)!;
      from = span.end;
    }
    out += (text ?? "").slice(from);
    for (const [secret, marker] of ordered) out = out.split(secret).join(marker);
    return out;
  };
  const patch = createTwoFilesPatch(before === null ? "/dev/null" : `a${path}`, after === null ? "/dev/null" : `b${path}`, mask(before, spans.before), mask(after, spans.after), undefined, undefined, { context: 3 });
  // jsdiff writes an "Index:"/"====" preamble; keep git's shape.
  return patch.replace(/^(Index: .*\n)?=+\n/, "");
}
