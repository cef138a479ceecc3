import { mkdir, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** A file's content, a symlink (`{ link }`) or a directory (`{ dir: true }`). */
export type TreeEntry = string | { link: string } | { dir: true };

/** Lays out host paths under a test root (the folder standing for `/`). */
export async function writeHostTree(root: string, tree: Record<string, TreeEntry>): Promise<void> {
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
