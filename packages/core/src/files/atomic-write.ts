import { constants, closeSync, fchmodSync, fchownSync, lchownSync, openSync, readlinkSync, symlinkSync, unlinkSync } from "node:fs";
import type { WriteBatch } from "./write-batch.js";
import { runsAsRoot } from "./acting-user.js";
import { basename, dirname, join } from "node:path";
import { errors } from "../errors/catalogue.js";
import type { FileContent } from "./file-content.js";
import { tempName } from "./temp-name.js";
import { lstatOrNull } from "./missing-as-null.js";
import { writeContent } from "./write-text.js";

export interface Ownership {
  uid?: number;
  gid?: number;
}

const isRoot = runsAsRoot;

/** The parent of a host path, resolved beneath the batch's root and made to exist; with the real target. */
export function prepareTarget(batch: WriteBatch, hostPath: string): { dir: string; target: string } {
  const dir = batch.folder(dirname(hostPath));
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
 * mode and owner; the batch makes its bytes durable and renames it over the target when it
 * commits (see WriteBatch), so no reader and no crash ever sees a partial target. Synchronous
 * on purpose: every step is a system call on tend's main thread, so a fault injected at the k-th
 * call lands on the same step every run.
 */
export function writeFileAtomic(batch: WriteBatch, hostPath: string, content: FileContent, mode: number, owner: Ownership = {}, expected?: string | null): void {
  const { dir, target } = prepareTarget(batch, hostPath);
  assertReplaceable(target, "file");
  const { name, tempBase, temp } = tempBeside(dir, target);
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeContent(fd, content);
    // Owner first: the kernel clears setuid and setgid on a chown, so the mode comes after it.
    if ((owner.uid !== undefined || owner.gid !== undefined) && isRoot()) fchownSync(fd, owner.uid ?? -1, owner.gid ?? -1);
    fchmodSync(fd, mode);
  } catch (error) {
    closeSync(fd);
    unlinkQuietly(temp);
    throw error;
  }
  closeSync(fd);
  batch.defer({ dir, temp: tempBase, name, data: true }, expected === undefined ? undefined : { path: hostPath, content: expected });
}

/** Points `hostPath` at `target` atomically (a temp link renamed over it). */
export function writeSymlinkAtomic(batch: WriteBatch, hostPath: string, linkTarget: string, owner: Ownership = {}, expected?: string | null): void {
  const { dir, target } = prepareTarget(batch, hostPath);
  assertReplaceable(target, "symlink");
  const { name, tempBase, temp } = tempBeside(dir, target);
  symlinkSync(linkTarget, temp);
  try {
    if ((owner.uid !== undefined || owner.gid !== undefined) && isRoot()) lchownSync(temp, owner.uid ?? -1, owner.gid ?? -1);
  } catch (error) {
    unlinkQuietly(temp);
    throw error;
  }
  // Renamed in order with the files before it: a link that enables a service lands after them.
  batch.defer({ dir, temp: tempBase, name, data: false }, expected === undefined ? undefined : { path: hostPath, content: expected });
}

/** A fresh temp name beside `target` in `dir`: the target's name, the temp's, and its path. */
function tempBeside(dir: string, target: string): { name: string; tempBase: string; temp: string } {
  const name = basename(target);
  const tempBase = tempName(name);
  return { name, tempBase, temp: join(dir, tempBase) };
}

export function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
