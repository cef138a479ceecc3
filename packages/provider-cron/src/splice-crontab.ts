import type { CrontabUnit, ParsedCrontab } from "./parse-crontab.js";

/**
 * A crontab with tend's blocks replaced (content), removed (null) or added (a name it does not
 * hold yet), leaving every other byte where it was. New blocks go after the last complete line:
 * at the end, or, when the crontab's last line has no newline, just before that line, so the
 * user's bytes stay exactly as they were (tend never adds a newline to a line of theirs).
 * Removing the added blocks again gives the original text back.
 */
export function spliceCrontab(parsed: ParsedCrontab, updates: ReadonlyMap<string, string | null>): string {
  const units: CrontabUnit[] = [];
  for (const unit of parsed.units) {
    if (unit.kind === "line" || !updates.has(unit.name)) {
      units.push(unit);
      continue;
    }
    const content = updates.get(unit.name);
    if (content != null) units.push({ ...unit, text: content });
  }
  const added: CrontabUnit[] = [];
  for (const [name, content] of updates) {
    if (content != null && !parsed.blocks.has(name)) added.push({ kind: "block", name, text: content, line: 0 });
  }
  const last = units.at(-1);
  const at = last && !last.text.endsWith("\n") ? units.length - 1 : units.length;
  units.splice(at, 0, ...added);
  return units.map((unit) => unit.text).join("");
}
