import { constants } from "node:fs";
import { lstat, mkdir, open, rename, stat, symlink, unlink, chown, readlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { errors } from "../errors/catalogue.js";

export interface Ownership {
  uid?: number;
  gid?: number;
}

function tempName(path: string): string {
  return join(dirname(path), `.${basename(path)}.tend-${process.pid}-${randomBytes(4).toString("hex")}`);
}

/**
 * Creates missing folders of `dir`, each with `mode` and the given owner. Existing folders may be
 * reached through system symlinks (`/var/run`); writes into a user's home run as that user, so a
 * link the user planted can only lead where the user could write anyway.
 */
export async function ensureDir(dir: string, mode = 0o755, owner: Ownership = {}): Promise<void> {
  const missing: string[] = [];
  let current = dir;
  for (;;) {
    try {
      const info = await stat(current);
      if (!info.isDirectory()) throw errors.unsafePath(current, "it is not a folder (a file is in the way)");
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
      missing.unshift(current);
      const parent = dirname(current);
      if (parent === current) break;
      current = parent;
    }
  }
  for (const folder of missing) {
    await mkdir(folder, { mode }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
    if (owner.uid !== undefined && process.getuid?.() === 0) await chown(folder, owner.uid, owner.gid ?? -1);
  }
}

/** Refuses to replace anything but a regular file (a `/dev/null` mask link, a folder, a device). */
async function assertReplaceable(path: string, kind: "file" | "symlink"): Promise<void> {
  try {
    const stat = await lstat(path);
    if (kind === "file" && !stat.isFile()) {
      const what = stat.isSymbolicLink() ? `a symlink to ${await readlink(path)}` : "not a regular file";
      throw errors.unsafePath(path, `it is ${what}; tend never writes through or over it`);
    }
    if (kind === "symlink" && !stat.isSymbolicLink() && !stat.isFile()) throw errors.unsafePath(path, "it is a folder or a device");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes a file atomically: a temp file in the same folder (O_EXCL, O_NOFOLLOW) with final mode
 * and owner, fsync, rename over the target, fsync the folder. Never leaves a partial target.
 */
export async function writeFileAtomic(path: string, content: string, mode: number, owner: Ownership = {}): Promise<void> {
  await ensureDir(dirname(path), 0o755, owner);
  await assertReplaceable(path, "file");
  const temp = tempName(path);
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  try {
    await handle.writeFile(content, "utf8");
    await handle.chmod(mode);
    if (owner.uid !== undefined && process.getuid?.() === 0) await handle.chown(owner.uid, owner.gid ?? -1);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  await rename(temp, path);
  await syncDir(dirname(path));
}

/** Points `path` at `target` atomically (a temp link renamed over it). */
export async function writeSymlinkAtomic(path: string, target: string, owner: Ownership = {}): Promise<void> {
  await ensureDir(dirname(path), 0o755, owner);
  await assertReplaceable(path, "symlink");
  const temp = tempName(path);
  await symlink(target, temp);
  await rename(temp, path);
  await syncDir(dirname(path));
}
