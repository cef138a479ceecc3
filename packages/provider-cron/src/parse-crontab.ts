import { NAME_PATTERN } from "@tend/core/contract";
import { crontabErrors } from "./crontab-errors.js";

/** A piece of a crontab: one of the user's lines, or one whole tend block. */
export type CrontabUnit =
  | { kind: "line"; text: string }
  | {
      kind: "block";
      name: string;
      /** From the start of `# BEGIN tend:<name>` to the end of `# END tend:<name>`, its newline included when it has one. */
      text: string;
      /** 1-based line number of the BEGIN marker. */
      line: number;
    };

/** A crontab cut into units; joining every unit's text gives the crontab back byte for byte. */
export interface ParsedCrontab {
  units: CrontabUnit[];
  /** Each tend block's text by timer name. */
  blocks: Map<string, string>;
}

/** Anything a reader would take for a tend marker; such a line must then be an exact one. */
const MARKER_LIKE = /^[ \t]*#[ \t]*(BEGIN|END)[ \t]+tend[ \t]*:/i;
const MARKER = /^# (BEGIN|END) tend:(.*)$/;

/**
 * Cuts a crontab into the user's lines and tend's blocks. Refuses, saying where, anything it
 * cannot read with certainty: a line that looks like a marker but is not exactly one, a BEGIN
 * without its END, an END without its BEGIN, a block opened inside another, the same name twice.
 */
export function parseCrontab(text: string, user: string): ParsedCrontab {
  const units: CrontabUnit[] = [];
  const blocks = new Map<string, string>();
  const begun = new Map<string, number>();
  let open: { name: string; line: number; text: string } | undefined;
  const damaged = (where: string) => crontabErrors.damaged(user, where);
  let lineNumber = 0;
  for (const raw of splitLines(text)) {
    lineNumber += 1;
    const body = raw.endsWith("\n") ? raw.slice(0, -1) : raw;
    const marker = MARKER_LIKE.test(body) ? MARKER.exec(body) : undefined;
    if (marker === null || (marker && !NAME_PATTERN.test(marker[2]!))) {
      throw damaged(`line ${lineNumber}, \`${body}\`, looks like a tend marker but is not exactly one`);
    }
    if (marker === undefined) {
      if (open) open.text += raw;
      else units.push({ kind: "line", text: raw });
      continue;
    }
    const [, kind, name = ""] = marker;
    if (kind === "BEGIN") {
      if (open) {
        throw damaged(`line ${lineNumber}, \`${body}\`, is inside the block tend:${open.name}, which line ${open.line} opens and nothing closes`);
      }
      const earlier = begun.get(name);
      if (earlier !== undefined) throw damaged(`lines ${earlier} and ${lineNumber} both begin tend:${name}`);
      begun.set(name, lineNumber);
      open = { name, line: lineNumber, text: raw };
    } else {
      if (!open) throw damaged(`line ${lineNumber}, \`${body}\`, has no \`# BEGIN tend:${name}\` before it`);
      if (open.name !== name) {
        throw damaged(`line ${lineNumber}, \`${body}\`, ends a block that line ${open.line} began as tend:${open.name}`);
      }
      open.text += raw;
      units.push({ kind: "block", name, text: open.text, line: open.line });
      blocks.set(name, open.text);
      open = undefined;
    }
  }
  if (open) throw damaged(`line ${open.line}, \`# BEGIN tend:${open.name}\`, has no \`# END tend:${open.name}\` after it`);
  return { units, blocks };
}

/** Lines with their `\n` kept; a last line without one is kept as it is. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}
