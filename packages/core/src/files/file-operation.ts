import { chmodSync, chownSync, closeSync, constants, fsyncSync, openSync, readdirSync, rmSync, rmdirSync, unlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { errors } from "../errors/catalogue.js";
import { TendError } from "../errors/tend-error.js";
import type { TendErrorCode } from "../errors/error-codes.js";
import { prepareTarget, writeFileAtomic, writeSymlinkAtomic, type Ownership } from "./atomic-write.js";
import type { FileContent } from "./file-content.js";
import { WriteBatch } from "./write-batch.js";
import { writeContent } from "./write-text.js";
import { fsError } from "./fs-error.js";
import { lstatOrNull } from "./missing-as-null.js";
import { resolveBeneath } from "./resolve-beneath.js";
import { setAttributes } from "./set-attributes.js";
import { holdsExpected } from "./target-unchanged.js";
import { tempOwner } from "./temp-name.js";

/** Nothing at a path, or a part of the way to it is a file: either way nothing to act on. */
const GONE = ["ENOENT", "ENOTDIR"];

/**
 * One change to the file system, by host path (resolved beneath the root by whoever performs
 * it): what tend's own process does, or a child running as the user who owns the folder.
 * `expected`, when given, is what the plan read at the path (a file's text, a link's target,
 * null for nothing): a write or deletion finds it still there just before it acts, or fails
 * and leaves the path as it is.
 */
export type FileOperation =
  | { op: "write"; path: string; content: FileContent; mode: number; owner?: Ownership; expected?: string | null }
  | { op: "symlink"; path: string; target: string; owner?: Ownership; expected?: string | null }
  | { op: "mkdir"; path: string; mode: number; owner?: Ownership }
  /** Deletes a file or link, and only that kind: what is there now must be what tend wrote. */
  | { op: "remove"; path: string; kind: "file" | "symlink"; expected?: string | null }
  /** Deletes a folder holding nothing but `ephemeral` entries; anything else keeps it. */
  | { op: "rmdir"; path: string; ephemeral: string[] }
  /** Deletes temp files an interrupted atomic write of `path` left beside it. */
  | { op: "clean-temps"; path: string }
  /** Sets a file's or folder's mode and owner in place, leaving its bytes and times: a file must still hold `expected`. */
  | { op: "attributes"; path: string; kind: "file" | "directory"; mode: number; owner?: Ownership; expected?: string | null }
  /** Appends to a file (made with `mode` when missing) and syncs it: the state journal. */
  | { op: "append"; path: string; content: FileContent; mode: number };

/** How an operation failed, in a form that crosses a process boundary. */
export interface OperationFailure {
  code: string;
  message: string;
  hint?: string;
}

const VERBS: Record<FileOperation["op"], string> = {
  write: "write",
  symlink: "link",
  mkdir: "make the folder",
  remove: "delete",
  rmdir: "delete the folder",
  "clean-temps": "clean up beside",
  append: "append to",
  attributes: "change the mode of",
};

/** Performs operations in order in this process; one failure never stops the next. */
export function performLocally(root: string, operations: FileOperation[]): (OperationFailure | null)[] {
  const batch = new WriteBatch(root);
  const results: (OperationFailure | null)[] = [];
  let exhausted: unknown;
  const settle = () => {
    if (exhausted !== undefined) {
      // Out of space: what was staged is dropped, so a full disk leaves every target as it was.
      for (const index of batch.abandon()) results[index] = asFailure(exhausted, operations[index]!, "not written, since the rest of its batch could not be: ");
      exhausted = undefined;
    }
    for (const [index, error] of batch.commit()) results[index] = asFailure(error, operations[index]!);
  };
  try {
    operations.forEach((operation, index) => {
      // Writes wait for the commit; anything else sees the batch's earlier writes in place.
      if (operation.op !== "write" && operation.op !== "symlink" && operation.op !== "mkdir") settle();
      batch.current = index;
      try {
        performOne(batch, operation);
        results[index] = null;
      } catch (error) {
        results[index] = asFailure(error, operation);
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOSPC" || code === "EDQUOT") exhausted ??= error;
      }
    });
    settle();
  } catch (error) {
    // A folder could not be synced: nothing of this batch is durable for sure.
    return operations.map((operation, i) => results[i] ?? asFailure(error, operation));
  }
  return results;
}

function asFailure(error: unknown, operation: FileOperation, prefix = ""): OperationFailure {
  const failure = fsError(error, VERBS[operation.op], operation.path);
  return { code: failure.code, message: `${prefix}${failure.message}`, ...(failure.hint ? { hint: failure.hint } : {}) };
}

/** A failure back as the TendError it was. */
export function failureError(failure: OperationFailure): TendError {
  // Codes crossed a process boundary as text; they were TendError codes when sent.
  return new TendError(failure.code as TendErrorCode, failure.message, failure.hint ? { hint: failure.hint } : {});
}

function performOne(batch: WriteBatch, operation: FileOperation): void {
  switch (operation.op) {
    case "write":
      return writeFileAtomic(batch, operation.path, operation.content, operation.mode, operation.owner, operation.expected);
    case "symlink":
      return writeSymlinkAtomic(batch, operation.path, operation.target, operation.owner, operation.expected);
    case "mkdir":
      return makeDir(batch, operation.path, operation.mode, operation.owner);
    case "remove":
      return removeEntry(batch, operation.path, operation.kind, operation.expected);
    case "rmdir":
      return removeDir(batch, operation.path, operation.ephemeral);
    case "clean-temps":
      return cleanTemps(batch, operation.path);
    case "append":
      return appendFile(batch, operation.path, operation.content, operation.mode);
    case "attributes":
      return setAttributes(batch, operation.path, operation.kind, operation.mode, operation.owner, operation.expected);
  }
}

function makeDir(batch: WriteBatch, hostPath: string, mode: number, owner: Ownership = {}): void {
  const { target } = prepareTarget(batch, hostPath);
  const info = lstatOrNull(target, GONE);
  if (info && !info.isDirectory()) throw errors.unsafePath(hostPath, info.isSymbolicLink() ? "it is a symlink where a folder should be" : "it is a file where a folder should be");
  batch.folder(hostPath, mode);
  // Owner first: the kernel clears setuid and setgid on a chown, so the mode comes after it.
  if ((owner.uid !== undefined || owner.gid !== undefined) && process.getuid?.() === 0) chownSync(target, owner.uid ?? -1, owner.gid ?? -1);
  chmodSync(target, mode);
}

function removeEntry(batch: WriteBatch, hostPath: string, kind: "file" | "symlink", expected: string | null | undefined): void {
  const target = resolveBeneath(batch.root, hostPath);
  const info = lstatOrNull(target, GONE);
  if (info === null) return;
  const matches = kind === "file" ? info.isFile() : info.isSymbolicLink() || info.isFile();
  if (!matches) {
    const what = info.isSymbolicLink() ? "a symlink" : info.isDirectory() ? "a folder" : "not a regular file";
    throw errors.unsafePath(hostPath, `it is now ${what}, not the ${kind} tend wrote; tend deletes only what it wrote`);
  }
  if (expected !== undefined && !holdsExpected(target, expected)) throw errors.changedMeanwhile(hostPath, "delete");
  unlinkSync(target);
  batch.touched(dirname(target));
}

function removeDir(batch: WriteBatch, hostPath: string, ephemeral: string[]): void {
  const target = resolveBeneath(batch.root, hostPath);
  const info = lstatOrNull(target, GONE);
  if (info === null) return;
  if (!info.isDirectory()) throw errors.unsafePath(hostPath, "it is no longer a folder; tend deletes only what it wrote");
  const entries = readdirSync(target);
  if (entries.some((name) => !ephemeral.includes(name))) return; // something not ours is inside: keep it
  // rmSync never follows a link inside: it removes the link.
  for (const name of entries) rmSync(join(target, name), { recursive: true, force: true });
  rmdirSync(target);
  batch.forget();
  batch.touched(dirname(target));
}

function cleanTemps(batch: WriteBatch, hostPath: string): void {
  const dir = resolveBeneath(batch.root, dirname(hostPath), true);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const base = basename(hostPath);
  for (const name of names) {
    // Called under the scope's lock, so no other apply is writing these: any left is a crash's.
    if (tempOwner(name, base) === undefined) continue;
    const info = lstatOrNull(join(dir, name), GONE);
    if (info && (info.isFile() || info.isSymbolicLink())) {
      unlinkSync(join(dir, name));
      batch.touched(dir);
    }
  }
}

/**
 * Appends, synced. The folder is synced (at commit) only when the file was made here: appending
 * to a file that exists adds no name to make durable.
 */
function appendFile(batch: WriteBatch, hostPath: string, content: FileContent, mode: number): void {
  const { dir, target } = prepareTarget(batch, hostPath);
  const { fd, made } = openForAppend(target, mode);
  try {
    writeContent(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (made) batch.touched(dir);
}

/** Opens a file to append to, never through a link; `made` when this call created it. */
function openForAppend(target: string, mode: number): { fd: number; made: boolean } {
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW;
  for (;;) {
    try {
      return { fd: openSync(target, flags), made: false };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    try {
      return { fd: openSync(target, flags | constants.O_CREAT | constants.O_EXCL, mode), made: true };
    } catch (error) {
      // made by someone else between the two opens: append to theirs
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}
