import { closeSync, constants, fchmodSync, fchownSync, fstatSync, fsyncSync, openSync, type Stats } from "node:fs";
import { errors } from "../errors/catalogue.js";
import { runsAsRoot } from "./acting-user.js";
import { prepareTarget, type Ownership } from "./atomic-write.js";
import { lstatOrNull } from "./missing-as-null.js";
import { readOpen } from "./read-regular.js";
import type { WriteBatch } from "./write-batch.js";

/**
 * Gives a file or folder tend made its mode (and, as root, its owner) in place: its bytes and
 * times stay as they are, so an init that compares a definition's time with its process's start
 * sees no new definition. Never through a link, and only on what `kind` says (the `lstat` keeps a
 * device from being opened at all); a file must still hold `expected`. Synced, so the new mode
 * survives a crash once the apply says it is done.
 */
export function setAttributes(batch: WriteBatch, hostPath: string, kind: "file" | "directory", mode: number, owner: Ownership = {}, expected?: string | null): void {
  const { target } = prepareTarget(batch, hostPath);
  const info = lstatOrNull(target);
  if (info === null) throw errors.changedMeanwhile(hostPath, "change the mode of");
  mustBe(info, kind, hostPath);
  const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | (kind === "directory" ? constants.O_DIRECTORY : 0);
  const fd = openSync(target, flags);
  try {
    // What is checked is what is changed: the bytes are read through the descriptor fchmod takes.
    const opened = fstatSync(fd);
    mustBe(opened, kind, hostPath);
    if (kind === "file" && expected !== undefined && (expected === null || readOpen(fd, opened.size) !== expected)) throw errors.changedMeanwhile(hostPath, "change the mode of");
    // Owner first: the kernel clears setuid and setgid on a chown, so the mode comes after it.
    if ((owner.uid !== undefined || owner.gid !== undefined) && runsAsRoot()) fchownSync(fd, owner.uid ?? -1, owner.gid ?? -1);
    fchmodSync(fd, mode);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Refuses anything at `hostPath` but the kind of thing tend made there. */
function mustBe(info: Stats, kind: "file" | "directory", hostPath: string): void {
  if (kind === "file" ? info.isFile() : info.isDirectory()) return;
  throw errors.unsafePath(hostPath, `it is now ${what(info)}, not the ${kind === "file" ? "file" : "folder"} tend made`, { action: "change the mode of" });
}

function what(info: Stats): string {
  if (info.isSymbolicLink()) return "a symlink";
  if (info.isDirectory()) return "a folder";
  return info.isFile() ? "a file" : "a device or socket";
}
