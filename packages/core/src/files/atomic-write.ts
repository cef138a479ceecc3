import { constants, chmodSync, closeSync, fchmodSync, fchownSync, fsyncSync, lchownSync, lstatSync, mkdirSync, openSync, readlinkSync, renameSync, symlinkSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { errors } from "../errors/catalogue.js";
import { resolveBeneath } from "./resolve-beneath.js";
import { tempName } from "./temp-name.js";

export interface Ownership {
  uid?: number;
  gid?: number;
}

const isRoot = () => process.getuid?.() === 0;

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

export function syncDir(dir: string): void {
  const fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Makes the real folder `dir` (already resolved beneath `root`) exist: each missing folder is
 * created with exactly `mode`, whatever the umask, and its parent synced so it survives a crash.
 * A file, or a link that appeared since resolving, where a folder should be is refused.
 */
export function ensureRealDir(root: string, dir: string, mode = 0o755): void {
  let current = root;
  for (const part of relative(root, dir).split("/").filter(Boolean)) {
    const next = join(current, part);
    const info = lstatOrNull(next);
    if (info === null) {
      try {
        mkdirSync(next, { mode });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      chmodSync(next, mode);
      syncDir(current);
    } else if (info.isSymbolicLink()) {
      throw errors.unsafePath(next, "it became a symlink while tend was working; nothing was written through it");
    } else if (!info.isDirectory()) {
      throw errors.unsafePath(next, "it is not a folder (a file is in the way)");
    }
    current = next;
  }
}

/** The parent of a host path, resolved beneath `root` and made to exist; with the real target. */
export function prepareTarget(root: string, hostPath: string, dirMode = 0o755): { dir: string; target: string } {
  const dir = resolveBeneath(root, dirname(hostPath), true);
  ensureRealDir(root, dir, dirMode);
  return { dir, target: join(dir, basename(hostPath)) };
}

/** Refuses to replace anything but what `kind` may replace (never a `/dev/null` mask link, a folder or a device). */
function assertReplaceable(target: string, kind: "file" | "symlink"): void {
  const info = lstatOrNull(target);
  if (info === null) return;
  if (kind === "file" && !info.isFile()) {
    const what = info.isSymbolicLink() ? `a symlink to ${readlinkSync(target)}` : info.isDirectory() ? "a folder" : "not a regular file";
    throw errors.unsafePath(target, `it is ${what}; tend never writes through or over it`);
  }
  if (kind === "symlink" && !info.isSymbolicLink() && !info.isFile()) throw errors.unsafePath(target, "it is a folder or a device");
}

/**
 * Writes a file atomically: a temp file in the same folder (O_EXCL, O_NOFOLLOW) given its final
 * mode and owner, fsync, rename over the target, fsync the folder. Never leaves a partial target.
 * Synchronous on purpose: every step is a system call on tend's main thread, so a fault injected
 * at the k-th call lands on the same step every run.
 */
export function writeFileAtomic(root: string, hostPath: string, content: string, mode: number, owner: Ownership = {}): void {
  const { dir, target } = prepareTarget(root, hostPath);
  assertReplaceable(target, "file");
  const temp = join(dir, tempName(basename(target)));
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    const bytes = Buffer.from(content, "utf8");
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
    fchmodSync(fd, mode);
    if (owner.uid !== undefined && isRoot()) fchownSync(fd, owner.uid, owner.gid ?? -1);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkQuietly(temp);
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, target);
  } catch (error) {
    unlinkQuietly(temp);
    throw error;
  }
  syncDir(dir);
}

/** Points `hostPath` at `target` atomically (a temp link renamed over it). */
export function writeSymlinkAtomic(root: string, hostPath: string, linkTarget: string, owner: Ownership = {}): void {
  const { dir, target } = prepareTarget(root, hostPath);
  assertReplaceable(target, "symlink");
  const temp = join(dir, tempName(basename(target)));
  symlinkSync(linkTarget, temp);
  try {
    if (owner.uid !== undefined && isRoot()) lchownSync(temp, owner.uid, owner.gid ?? -1);
    renameSync(temp, target);
  } catch (error) {
    unlinkQuietly(temp);
    throw error;
  }
  syncDir(dir);
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
