import { mkdir, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** Lays out host files under a test root: a string is a file, `{ link }` a symlink, `{ dir: true }` a folder. */
export type HostTree = Record<string, string | { link: string } | { dir: true }>;

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

/** The boot service of dinit's own examples (`waits-for.d = boot.d`), with its folder. */
export const BOOT: HostTree = {
  "/etc/dinit.d/boot": "type = internal\nwaits-for.d = boot.d\n",
  "/etc/dinit.d/boot.d": { dir: true },
};
