/**
 * Free text (`Description=`) as a unit-file value. systemd expands `%` specifiers in it, so `%`
 * becomes `%%`; it takes backslashes literally, except that a line ending in an odd run of them
 * continues onto the next line (which would swallow the next directive). Such a value gets one
 * trailing space: it ends the escape, and systemd strips it from the value.
 */
export function escapeTextValue(text: string): string {
  const escaped = text.replace(/%/g, "%%");
  const trailing = /\\+$/.exec(escaped)?.[0].length ?? 0;
  return trailing % 2 === 1 ? `${escaped} ` : escaped;
}
