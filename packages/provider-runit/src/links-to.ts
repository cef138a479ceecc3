import { posix } from "node:path";
import type { HostFiles } from "@tend/core/contract";

/** Whether `link` is a symlink that points at the directory `dir` (absolute or relative target). */
export async function linksTo(files: HostFiles, link: string, dir: string): Promise<boolean> {
  const target = await files.readLink(link);
  if (target === null) return false;
  return posix.resolve(posix.dirname(link), target) === posix.resolve(dir);
}
