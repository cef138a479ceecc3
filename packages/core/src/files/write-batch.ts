import { chmodSync, constants, closeSync, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { errors } from "../errors/catalogue.js";
import { unlinkQuietly } from "./atomic-write.js";
import { holdsExpected } from "./target-unchanged.js";
import { lstatOrNull } from "./missing-as-null.js";
import { FolderResolver } from "./folder-resolver.js";
import { childProcesses } from "../runner/child-process.js";

/** Syncs a file or folder by path. */
function syncPath(path: string, folder: boolean): void {
  const fd = openSync(path, folder ? constants.O_RDONLY | constants.O_DIRECTORY : constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Syncs a folder, so the names just made or renamed in it survive a crash. */
export function syncDir(dir: string): void {
  syncPath(dir, true);
}

/** From this many files or folders on, one `sync --file-system` per device beats one fsync each. */
const SYNCFS_FROM = 16;

/**
 * A write waiting for its batch to commit: a temp file (or link) to rename over its target, both
 * in one folder. Names, not paths: a big batch keeps tens of thousands of these until it commits.
 */
interface Deferred {
  /** The real folder of both. */
  dir: string;
  /** The temp file's name. */
  temp: string;
  /** The target's name. */
  name: string;
  /** A file whose bytes must be durable before the rename (a link has none). */
  data: boolean;
  /** The operation it belongs to, for its failure. */
  index: number | undefined;
  /** What the plan read at the target, which must still be there at the rename (see FileOperation). */
  expected: Expected | undefined;
}

/** What must still be at a write's target when it is renamed over, and the target's host path for the error. */
interface Expected {
  path: string;
  content: string | null;
}

/**
 * What one batch of file operations shares: the folders already resolved beneath the root and
 * made, the writes waiting to be renamed into place, and the folders whose entries still need
 * syncing. A batch commits in two steps, the way a journal does: first every waiting temp file
 * is made durable (one `sync --file-system` per device for many, fsync each for few), then they
 * are renamed over their targets in order and the folders synced. Anything that reads or
 * removes commits what waits first, so the batch's order is the order on disk; and a batch ends
 * committed, before the state journal records any of its writes as done.
 */
export class WriteBatch {
  private readonly ready = new Map<string, string>();
  private readonly folders: FolderResolver;
  private readonly unsynced = new Set<string>();
  private deferred: Deferred[] = [];
  /** The operation being performed, so a deferred write can be blamed on it. */
  current: number | undefined;

  constructor(readonly root: string) {
    this.folders = new FolderResolver(root);
  }

  /** The real folder for a host folder, made to exist (missing parts with exactly `mode`, whatever the umask). */
  folder(hostDir: string, mode = 0o755): string {
    const known = this.ready.get(hostDir);
    if (known !== undefined) return known;
    const found = this.folders.resolve(hostDir);
    if (found.kind === "other") throw errors.unsafePath(hostDir, "it is not a folder (a file is in the way)");
    let real = found.real;
    if (found.kind === "missing") {
      const parent = this.folder(dirname(hostDir), mode);
      if (join(parent, basename(hostDir)) === real) {
        makeFolder(real, mode);
        this.touched(parent);
      } else {
        // A dangling link on the way: make what it points to, beneath the root.
        ensureRealDir(this.root, real, mode, this);
      }
    }
    this.ready.set(hostDir, real);
    return real;
  }

  /** A folder got a new entry (or lost one): synced when the batch commits. */
  touched(realDir: string): void {
    this.unsynced.add(realDir);
  }

  /** A temp file or link ready to be renamed over its target at the commit. */
  defer(write: Omit<Deferred, "index" | "expected">, expected?: Expected): void {
    // Spelled out: V8 gives each `{ ...write, index }` (a copy that gains a property) its own hidden class.
    this.deferred.push({ dir: write.dir, temp: write.temp, name: write.name, data: write.data, index: this.current, expected });
  }

  /**
   * Drops every waiting write (their temp files removed, their targets untouched): a batch that
   * could not be staged whole — a full disk — changes nothing. Returns the operations dropped.
   */
  abandon(): number[] {
    const dropped = this.deferred.flatMap((w) => (w.index === undefined ? [] : [w.index]));
    for (const write of this.deferred) unlinkQuietly(join(write.dir, write.temp));
    this.deferred = [];
    return dropped;
  }

  /** Folders were removed: what was resolved may be gone. */
  forget(): void {
    this.ready.clear();
    this.folders.forget();
  }

  /**
   * Makes waiting writes durable, renames them into place in order, and syncs every touched
   * folder. Returns the failures by operation index (a rename that failed leaves its target as
   * it was and its temp file removed).
   */
  commit(): Map<number, unknown> {
    const failures = new Map<number, unknown>();
    const waiting = this.deferred;
    this.deferred = [];
    if (waiting.length > 0) {
      try {
        durableFiles(waiting.filter((w) => w.data));
      } catch (error) {
        for (const write of waiting) {
          unlinkQuietly(join(write.dir, write.temp));
          if (write.index !== undefined) failures.set(write.index, error);
        }
        return failures;
      }
      for (const write of waiting) {
        const temp = join(write.dir, write.temp);
        try {
          const target = join(write.dir, write.name);
          if (write.expected && !holdsExpected(target, write.expected.content)) throw errors.changedMeanwhile(write.expected.path, "overwrite");
          renameSync(temp, target);
          this.unsynced.add(write.dir);
        } catch (error) {
          unlinkQuietly(temp);
          if (write.index !== undefined) failures.set(write.index, error);
        }
      }
    }
    const dirs = [...this.unsynced];
    this.unsynced.clear();
    durableFolders(dirs);
    return failures;
  }
}

/** Makes folders' entries durable: fsync each when few, else one syncfs per device they are on. */
function durableFolders(paths: string[]): void {
  if (paths.length === 0) return;
  if (paths.length >= SYNCFS_FROM && syncFileSystems(paths)) return;
  for (const path of paths) syncUnlessGone(path, true);
}

/**
 * Makes waiting files' bytes durable: fsync each when few, else one syncfs per device. A file
 * made in a folder is on that folder's device, so the folders (far fewer) find the devices.
 */
function durableFiles(writes: Deferred[]): void {
  if (writes.length === 0) return;
  if (writes.length >= SYNCFS_FROM && syncFileSystems(new Set(writes.map((w) => w.dir)))) return;
  for (const write of writes) syncUnlessGone(join(write.dir, write.temp), false);
}

function syncUnlessGone(path: string, folder: boolean): void {
  try {
    syncPath(path, folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** `sync --file-system` once per device holding `paths`; false when that command is missing. */
function syncFileSystems(paths: Iterable<string>): boolean {
  const byDevice = new Map<number, string>();
  for (const path of paths) {
    try {
      const device = statSync(path).dev;
      if (!byDevice.has(device)) byDevice.set(device, path);
    } catch {
      // gone: nothing of it to sync
    }
  }
  for (const path of byDevice.values()) {
    const result = childProcesses().spawnSync("sync", ["--file-system", "--", path], { stdio: "ignore", timeout: 120_000 });
    if (result.error || result.status !== 0) return false;
  }
  return true;
}

/**
 * Makes the real folder `dir` (already resolved beneath `root`) exist: each missing folder is
 * created with exactly `mode`, whatever the umask, and its parent synced (at the commit, when
 * there is a batch) so it survives a crash. A file, or a link that appeared since resolving,
 * where a folder should be is refused.
 */
export function ensureRealDir(root: string, dir: string, mode = 0o755, batch?: WriteBatch): void {
  let current = root;
  for (const part of relative(root, dir).split("/").filter(Boolean)) {
    const next = join(current, part);
    const info = lstatOrNull(next);
    if (info === null) {
      makeFolder(next, mode);
      if (batch) batch.touched(current);
      else syncDir(current);
    } else if (info.isSymbolicLink()) {
      throw errors.unsafePath(next, "it became a symlink while tend was working; nothing was written through it");
    } else if (!info.isDirectory()) {
      throw errors.unsafePath(next, "it is not a folder (a file is in the way)");
    }
    current = next;
  }
}

/** Makes one folder with exactly `mode`; one made meanwhile must be a folder too. */
function makeFolder(path: string, mode: number): void {
  try {
    mkdirSync(path, { mode });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const info = lstatSync(path);
    if (!info.isDirectory()) throw errors.unsafePath(path, info.isSymbolicLink() ? "it became a symlink while tend was working; nothing was written through it" : "it is not a folder (a file is in the way)");
    return;
  }
  chmodSync(path, mode);
}
