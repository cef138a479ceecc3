/**
 * The most unit names tend puts on one systemctl command line: keeps its argv far below the
 * kernel's limit. Past it, a command is run in chunks, or names tend's units by the `tend-*`
 * pattern.
 */
export const UNITS_PER_COMMAND = 500;

/**
 * Units for one command line: by name, or past UNITS_PER_COMMAND tend's own by `pattern` (which
 * may match more of tend's units than asked for) and the rest by name.
 */
export function namedOrMatched(units: string[], pattern: string): string[] {
  return units.length <= UNITS_PER_COMMAND ? units : [pattern, ...units.filter((unit) => !unit.startsWith("tend-"))];
}
