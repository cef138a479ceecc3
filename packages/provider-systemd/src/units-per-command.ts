/**
 * The most unit names tend puts on one systemctl command line: keeps its argv far below the
 * kernel's limit. Past it, a command is run in chunks, or names tend's units by the `tend-*`
 * pattern.
 */
export const UNITS_PER_COMMAND = 500;
