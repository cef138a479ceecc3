/** The first line (after any `#!`) of every file tend renders that has room for a comment. */
export const MANAGED_HEADER = "# Managed by tend. Edits are overwritten on the next apply.";
