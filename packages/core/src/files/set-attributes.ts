import { closeSync, constants, fchmodSync, fchownSync, fstatSync, fsyncSync, openSync } from "node:fs";
import { errors } from "../errors/catalogue.js";
import { runsAsRoot } from "./acting-user.js";
import { prepareTarget, type Ownership } from "./atomic-write.js";
import { lstatOrNull } from "./missing-as-null.js";
import { holdsExpected } from "./target-unchanged.js";
import type { WriteBatch } from "./write-batch.js";

/**
 * Gives a file tend wrote its mode (and, as root, its owner) in place: its bytes and times stay
 * as they are, so an init that compares a definition's time with its process's start sees no new
 * definition. Never through a link, and never on anything but a regular file (the `lstat` keeps
 * a device from being opened at all); the file must still hold `expected`. Synced, so the new
 * mode survives a crash once the apply says it is done.
 */
export function setAttributes(batch: WriteBatch, hostPath: string, mode: number, owner: Ownership = {}, expected?: string | null): void {
  const { target } = prepareTarget(batch, hostPath);
  const info = lstatOrNull(target);
  if (info === null) throw errors.changedMeanwhile(hostPath, "overwrite");
  if (!info.isFile()) throw errors.unsafePath(hostPath, `it is now ${info.isSymbolicLink() ? "a symlink" : "not a regular file"}; tend changes the mode of files it wrote only`, { action: "change the mode of" });
  if (expected !== undefined && !holdsExpected(target, expected)) throw errors.changedMeanwhile(hostPath, "overwrite");
  const fd = openSync(target, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw errors.unsafePath(hostPath, "it is now not a regular file; tend changes the mode of files it wrote only", { action: "change the mode of" });
    fchmodSync(fd, mode);
    if (owner.uid !== undefined && runsAsRoot()) fchownSync(fd, owner.uid, owner.gid ?? -1);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
