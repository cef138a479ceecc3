import type { Artifact } from "../contract/artifact.js";

/** Identity of an artifact across stores: `file:/etc/x`, `crontab-block:crontab alice: tend:x`. */
export function artifactId(artifact: Pick<Artifact, "store" | "path">): string {
  return `${artifact.store ?? "file"}:${artifact.path}`;
}
