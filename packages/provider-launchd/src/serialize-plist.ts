import { errors, type PlistValue } from "@tend/core/contract";
import { xmlUnsafeCharacter } from "./xml-unsafe-character.js";

/** A plist's top level: launchd reads a dictionary. */
export type PlistDict = { [key: string]: PlistValue };

const PROLOG = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
];

const INT64_LIMIT = 2 ** 63;

/**
 * An XML property list, laid out as Apple's own tools write it (tab indentation, `<true/>`,
 * `<dict/>` when empty). Whole numbers become `<integer>` (launchd wants integers for
 * `StartInterval`, `Hour`, …), other numbers `<real>`. Text is escaped, so any string the model
 * allows reads back identical; a character XML cannot carry at all is refused (`check` reports it
 * first, naming the field).
 *
 * `comment` goes in an XML comment between the DOCTYPE and `<plist>`, where XML allows one and
 * CoreFoundation's parser (which plutil and launchd read plists with) skips it.
 *
 * Written here rather than with the `plist` package's builder because that one writes an
 * integer-valued number such as 1e21 as `<integer>1e+21</integer>`, which no parser reads back.
 */
export function serializePlist(dict: PlistDict, options: { comment?: string } = {}): string {
  const comment = options.comment === undefined ? [] : [commentLine(options.comment)];
  return [...PROLOG, ...comment, '<plist version="1.0">', ...valueLines(dict, ""), "</plist>", ""].join("\n");
}

/** `<!-- text -->`; XML forbids `--` inside a comment and a `-` right before its end. */
function commentLine(text: string): string {
  if (text.includes("--") || text.endsWith("-") || text.includes("\n") || xmlUnsafeCharacter(text)) throw errors.spec(`a plist comment cannot hold ${JSON.stringify(text)}`);
  return `<!-- ${text} -->`;
}

function valueLines(value: PlistValue, indent: string): string[] {
  if (typeof value === "string") return [`${indent}<string>${escapeText(value)}</string>`];
  if (typeof value === "boolean") return [`${indent}<${value}/>`];
  if (typeof value === "number") return [numberLine(value, indent)];
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${indent}<array/>`];
    return [`${indent}<array>`, ...value.flatMap((item) => valueLines(item, `${indent}\t`)), `${indent}</array>`];
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return [`${indent}<dict/>`];
  const inner = `${indent}\t`;
  return [
    `${indent}<dict>`,
    ...entries.flatMap(([key, item]) => [`${inner}<key>${escapeText(key)}</key>`, ...valueLines(item, inner)]),
    `${indent}</dict>`,
  ];
}

function numberLine(value: number, indent: string): string {
  if (!Number.isFinite(value)) throw errors.spec(`a plist cannot hold the number ${value}`);
  if (Number.isInteger(value) && Math.abs(value) < INT64_LIMIT) return `${indent}<integer>${BigInt(value)}</integer>`;
  return `${indent}<real>${String(value)}</real>`;
}

function escapeText(text: string): string {
  const unsafe = xmlUnsafeCharacter(text);
  if (unsafe) throw errors.spec(`a plist cannot hold the character ${unsafe}`);
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#13;");
}
