import type { HostFiles } from "@tend/core/contract";
import type { LocalHostFiles } from "@tend/core/runtime";

/**
 * A temp root's files as the host tend runs on sees its own (HostFiles.local): the provider then
 * reads `real(path)` itself with node:fs, as it would on a booted host, still inside the root.
 */
export function asLocalFiles(files: LocalHostFiles): HostFiles {
  return Object.assign(Object.create(files) as LocalHostFiles, { local: true });
}
