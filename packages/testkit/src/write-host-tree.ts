import { mkdir, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** A host path's entry: a file's content, a symlink (`{ link }`) or a folder (`{ dir: true }`). */
export type HostTreeEntry = string | { link: string } | { dir: true };

/** Host paths and what each holds, for laying out a test host. */
export type HostTree = Record<string, HostTreeEntry>;

/** Lays out host paths under a test root (the folder standing for `/`, e.g. `applyContext().rootDir`). */
export async function writeHostTree(root: string, tree: HostTree): Promise<void> {
  for (const [path, entry] of Object.entries(tree)) {
    const real = join(root, path);
    if (typeof entry === "object" && "dir" in entry) {
      await mkdir(real, { recursive: true });
      continue;
    }
    await mkdir(dirname(real), { recursive: true });
    if (typeof entry === "string") await writeFile(real, entry);
    else await symlink(entry.link, real);
  }
}
