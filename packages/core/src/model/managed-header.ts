/** The first line (after any `#!`) of every file tend renders that has room for a comment. */
export const MANAGED_HEADER = "# Managed by tend. Edits are overwritten on the next apply.";

/**
 * Whether a file's text carries the header in its first lines (after a `#!`, an XML prolog or
 * a plist's doctype). Not proof of ownership — anyone can write it — but enough to tell a file
 * tend wrote and lost track of (an orphan) from an admin's own.
 */
export function carriesManagedHeader(text: string): boolean {
  return text.split("\n", 4).some((line) => line.includes(MANAGED_HEADER.slice(2)));
}
