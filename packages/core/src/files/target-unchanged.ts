import { lstatSync, readlinkSync } from "node:fs";
import { orNull } from "./missing-as-null.js";
import { readRegular } from "./read-regular.js";

/**
 * Whether `real` still holds what the plan read there: `expected` is a file's text or a link's
 * target, null for nothing. Asked just before a rename over the path or a deletion of it, so an
 * edit made after the plan read the file (an admin's editor, another tool) is never replaced or
 * deleted unseen, and its backup is never a stale copy.
 */
export function holdsExpected(real: string, expected: string | null): boolean {
  const info = orNull(() => lstatSync(real));
  if (info === null) return expected === null;
  if (expected === null) return false;
  if (info.isSymbolicLink()) return readlinkSync(real, "utf8") === expected;
  if (info.isFile()) return readRegular(real) === expected;
  return false;
}
