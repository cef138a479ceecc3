// @ts-check

/*
 * How supervisord reads a program section, which decides how tend writes one: Python's
 * configparser reads each line (a `;` or `#` after whitespace starts a comment), then every value
 * is expanded as a Python format string (`%(ENV_HOME)s`; a literal `%` is `%%`). `command=` is then
 * split with shlex in POSIX mode; `environment=` with shlex in non-POSIX mode, which knows no
 * escapes and strips every quote character from both ends of a value.
 */

const BARE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Characters written outside quotes with a backslash: `'` ends a quote; `;` and `#` could start a comment. */
const ESCAPED = new Set(["'", ";", "#"]);

/**
 * One argument of `command=`, read back by shlex exactly: single-quoted runs, with `'`, `;` and
 * `#` backslash-escaped between them, so configparser never sees whitespace before a `;` or `#`.
 */
export function quoteArgument(/** @type {string} */ arg) {
  if (BARE.test(arg)) return arg;
  let out = "";
  let open = false;
  for (const char of arg) {
    if (ESCAPED.has(char)) {
      out += `${open ? "'" : ""}\\${char}`;
      open = false;
    } else {
      out += `${open ? "" : "'"}${char}`;
      open = true;
    }
  }
  return out === "" ? "''" : open ? `${out}'` : out;
}

/** The value of `command=` for an argument list. */
export function commandValue(/** @type {string[]} */ argv) {
  return escapePercent(argv.map(quoteArgument).join(" "));
}

/**
 * Whether `environment=` can carry a value byte for byte inside double quotes: non-POSIX shlex
 * cannot escape a `"`, supervisor strips quote characters from both ends, and configparser would
 * cut the line at whitespace followed by `;` or `#`.
 */
export function carriesInEnvironment(/** @type {string} */ value) {
  return !value.includes('"') && !value.startsWith("'") && !value.endsWith("'") && !/\s[;#]/u.test(value);
}

/** The value of `environment=`: `KEY="value",KEY2="value2"`, every value carriable (see {@link carriesInEnvironment}). */
export function environmentValue(/** @type {[string, string][]} */ entries) {
  return escapePercent(entries.map(([key, value]) => `${key}="${value}"`).join(","));
}

/** supervisord expands every value as a Python format string. */
function escapePercent(/** @type {string} */ text) {
  return text.replaceAll("%", "%%");
}
