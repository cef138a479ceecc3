import type { PlistValue } from "@tend/core/contract";

/**
 * Characters XML 1.0 cannot carry at all, escaped or not: C0 controls other than TAB, LF and CR,
 * U+FFFE, U+FFFF and unpaired UTF-16 surrogates. A plist holding one is unreadable, and launchctl
 * answers it with "Bootstrap failed: 5: Input/output error".
 */
// eslint-disable-next-line no-control-regex
const XML_ILLEGAL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The first character of `text` a plist cannot hold, as `U+XXXX`, or undefined. */
export function xmlUnsafeCharacter(text: string): string | undefined {
  const found = XML_ILLEGAL.exec(text)?.[0];
  return found === undefined ? undefined : `U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The same, for every key and string anywhere inside a plist value. */
export function xmlUnsafeCharacterIn(value: PlistValue): string | undefined {
  if (typeof value === "string") return xmlUnsafeCharacter(value);
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = xmlUnsafeCharacterIn(item);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const found = xmlUnsafeCharacter(key) ?? xmlUnsafeCharacterIn(item);
      if (found) return found;
    }
  }
  return undefined;
}
