import { createHash } from "node:crypto";

/** The hash recorded for an artifact's content in the state file. */
export function contentHash(content: string): string {
  return `sha256:${createHash("sha256").update(content, "utf8").digest("hex")}`;
}
