import type { Artifact } from "../contract/artifact.js";
import type { FileResource } from "../model/resource-schema.js";

/** A `file` resource is the core's own: one file artifact. */
export function fileArtifacts(resource: FileResource): Artifact[] {
  return [
    {
      path: resource.path,
      content: resource.content,
      mode: resource.mode ? parseInt(resource.mode, 8) : 0o644,
      ...(resource.owner ? { owner: resource.owner } : {}),
      ...(resource.group ? { group: resource.group } : {}),
    },
  ];
}
