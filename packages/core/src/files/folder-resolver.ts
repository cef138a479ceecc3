import { lstatSync, type Stats } from "node:fs";
import { basename, dirname, join } from "node:path";
import { resolveBeneath } from "./resolve-beneath.js";

/** A host folder as found beneath the root, with every non-root owner on the way to it. */
export interface ResolvedFolder {
  /** Its real path (links on the way followed, beneath the root). */
  real: string;
  kind: "folder" | "missing" | "other";
  /** Non-root owners of the folders and links the way went through, with one path each. */
  owners: Map<number, string>;
}

/**
 * Resolves host folders beneath a root the way resolveBeneath does, remembering every folder it
 * has seen: a folder whose parent is known costs one lstat. A link on the way makes it walk the
 * whole path again (links are rare; correctness beats the cache). Meant for one batch of work,
 * during which nothing but tend changes these folders.
 */
export class FolderResolver {
  private readonly known = new Map<string, ResolvedFolder>();

  constructor(
    readonly root: string,
    /**
     * Whether to remember that a folder is missing. Only while tend alone changes the tree (one
     * batch of writes); reads over a whole run remember only folders that exist, since the init
     * and the commands tend runs make new ones.
     */
    private readonly rememberMissing = true,
  ) {}

  resolve(hostDir: string): ResolvedFolder {
    const cached = this.known.get(hostDir);
    if (cached) return cached;
    const found = hostDir === "/" ? { real: this.root, kind: "folder" as const, owners: new Map<number, string>() } : this.step(hostDir);
    if (found.kind === "folder" || this.rememberMissing) this.known.set(hostDir, found);
    return found;
  }

  /**
   * A folder the caller found with its own lstat of the path this resolver gives it (its parent
   * resolved here, the last part as is): remembered as if resolved, so reading a folder's files
   * after the folder itself costs no second lstat. Anything but a folder is not remembered.
   */
  learn(hostDir: string, info: Stats): void {
    if (!info.isDirectory() || this.known.has(hostDir)) return;
    const parent = this.known.get(dirname(hostDir));
    if (parent?.kind !== "folder") return;
    this.known.set(hostDir, this.found(parent, join(parent.real, basename(hostDir)), info));
  }

  /** Folders were made or removed: forget what was seen. */
  forget(): void {
    this.known.clear();
  }

  private step(hostDir: string): ResolvedFolder {
    const parent = this.resolve(dirname(hostDir));
    const real = join(parent.real, basename(hostDir));
    // Nothing exists below a missing folder (or a file), and nothing there can steer the way.
    if (parent.kind !== "folder") return { real, kind: "missing", owners: parent.owners };
    let info;
    try {
      // No exception for a missing entry: a fresh image root has thousands of them.
      info = lstatSync(real, { throwIfNoEntry: false });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOTDIR") throw error;
    }
    if (!info) return { real, kind: "missing", owners: parent.owners };
    if (info.isSymbolicLink()) return this.walk(hostDir);
    return this.found(parent, real, info);
  }

  /** What lstat saw at `real`, not a link, beneath the folder `parent`. */
  private found(parent: ResolvedFolder, real: string, info: Stats): ResolvedFolder {
    const owners = info.uid !== 0 && !parent.owners.has(info.uid) ? new Map([...parent.owners, [info.uid, real]]) : parent.owners;
    return { real, kind: info.isDirectory() ? "folder" : "other", owners };
  }

  /** The whole path from the root, through links. */
  private walk(hostDir: string): ResolvedFolder {
    const visited: string[] = [];
    const real = resolveBeneath(this.root, hostDir, true, visited);
    const owners = new Map<number, string>();
    for (const path of visited) {
      try {
        const uid = lstatSync(path).uid;
        if (uid !== 0 && !owners.has(uid)) owners.set(uid, path);
      } catch {
        // gone since: nobody steers through it
      }
    }
    let kind: ResolvedFolder["kind"] = "missing";
    try {
      const info = lstatSync(real);
      kind = info.isDirectory() ? "folder" : "other";
    } catch {
      // missing
    }
    return { real, kind, owners };
  }
}
