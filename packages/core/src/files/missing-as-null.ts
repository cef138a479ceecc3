import { lstatSync, type Stats } from "node:fs";

/** What makes a path missing for a read: nothing there, or a part of it is a file (EINVAL: readlink of a non-link). */
const MISSING = ["ENOENT", "ENOTDIR", "EINVAL"];

/** What `read` gives, or null when it failed with one of `missing` (by default: the path is missing); other errors are thrown. */
export function orNull<T>(read: () => T, missing: readonly string[] = MISSING): T | null {
  try {
    return read();
  } catch (error) {
    if (missing.includes((error as NodeJS.ErrnoException).code ?? "")) return null;
    throw error;
  }
}

/** What is at `path`, never following a link there; null when nothing is (`missing` as for orNull). */
export function lstatOrNull(path: string, missing: readonly string[] = ["ENOENT"]): Stats | null {
  return orNull(() => lstatSync(path), missing);
}
