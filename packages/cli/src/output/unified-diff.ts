import { createTwoFilesPatch } from "diff";

/** Environment variable names whose values are secrets: masked in every diff tend prints. */
const SECRET_NAME = /(PASS(WORD|WD)?|SECRET|TOKEN|KEY|CREDENTIAL|PRIVATE|AUTH|COOKIE|SESSION)/i;

/** The values of a resource's `env` that look like secrets, to mask (at least 4 characters, to mask nothing by accident). */
export function secretValues(env: Record<string, string> | undefined): string[] {
  return Object.entries(env ?? {})
    .filter(([name, value]) => SECRET_NAME.test(name) && value.length >= 4)
    .map(([, value]) => value);
}

/** The secret values of a resource's previous and current versions. */
export interface Secrets {
  before: string[];
  after: string[];
}

/**
 * A unified diff of one file or link from what the host holds to what tend writes (`--diff`),
 * with every secret value replaced by `********` before the lines are compared, so a secret
 * never reaches a terminal or a CI log.
 */
export function unifiedDiff(path: string, before: string | null, after: string | null, secrets: Secrets = { before: [], after: [] }): string {
  // A secret in both versions reads the same on both sides (no change shown); one that changed
  // shows as changed, without either value.
  const markers = new Map<string, string>();
  for (const value of secrets.before) markers.set(value, secrets.after.includes(value) ? "********" : "********(was)");
  for (const value of secrets.after) if (!markers.has(value)) markers.set(value, "********(now)");
  const ordered = [...markers].sort((a, b) => b[0].length - a[0].length);
  const mask = (text: string | null) => {
    let out = text ?? "";
    for (const [secret, marker] of ordered) out = out.split(secret).join(marker);
    return out;
  };
  const patch = createTwoFilesPatch(before === null ? "/dev/null" : `a${path}`, after === null ? "/dev/null" : `b${path}`, mask(before), mask(after), undefined, undefined, { context: 3 });
  // jsdiff writes an "Index:"/"====" preamble; keep git's shape.
  return patch.replace(/^(Index: .*\n)?=+\n/, "");
}
