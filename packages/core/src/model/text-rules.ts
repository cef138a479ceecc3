/** Letters, digits and `_ . - @`, not starting with `.` or `-` (the seed's name rule). */
export const NAME_PATTERN = /^[A-Za-z0-9_@][A-Za-z0-9_.@-]*$/;

/**
 * A package's name as package managers spell them (`libstdc++6`, `python3.11`, `nginx`): letters,
 * digits and `+ . _ -`, starting with a letter or digit. A provider may be stricter (Debian's are
 * lowercase).
 */
export const PACKAGE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9+._-]*$/;

/** One exact package version (`1.22.1-9`, `1:2.3~rc1-1`): no spaces, globs or operators. */
export const PACKAGE_VERSION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9.+~:_-]*$/;

/** A valid shell variable name, which every init's env mechanism can carry. */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * C0 controls except TAB, DEL, C1 controls and the Unicode line and paragraph separators: any of
 * them can end a line in some file tend writes (a unit, a crontab, a shell script), which would
 * let a value inject a directive of its own.
 */
// eslint-disable-next-line no-control-regex
const LINE_BREAKING = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/;

export function isOneLine(value: string): boolean {
  return !LINE_BREAKING.test(value);
}

/** File contents may span lines but never hold NUL, which every init truncates at. */
export function hasNul(value: string): boolean {
  return value.includes("\u0000");
}
