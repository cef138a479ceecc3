import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, realpathSync, type Stats } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Scope } from "../contract/host.js";
import { errors } from "../errors/catalogue.js";
import type { TendError } from "../errors/tend-error.js";
import { lookupGroup, lookupUser } from "../host/passwd.js";
import { actorFor, runsAsRoot, type Actor } from "./acting-user.js";
import { FolderResolver } from "./folder-resolver.js";
import type { Ownership } from "./atomic-write.js";
import { failureError, performLocally, type FileOperation } from "./file-operation.js";
import { fsError } from "./fs-error.js";
import { orNull } from "./missing-as-null.js";
import { readRegular, readRegularFile } from "./read-regular.js";
import { shortfall, type RoomNeed, type Shortfall } from "./room-needed.js";
import { hostPathParts, NORMAL_PATH_PATTERN } from "./host-path.js";
import { performAsUser } from "./user-writer.js";
import type { HostFileAccess } from "../host/host-access.js";

/**
 * A file's or folder's permission bits and owner, as the host reports them: the owner only where tend can
 * set it (as root), since a file it cannot give away must not count as drift forever.
 */
export interface FileAttributes {
  /** The permission bits (`0o644`), setuid, setgid and sticky included. */
  mode: number;
  uid?: number;
  gid?: number;
}

/**
 * What is at a host path, without following a link there. A host that can tell gives a file's
 * attributes too; without them its mode and owner are not compared with what tend wants.
 */
export type PathContent =
  | { kind: "absent" }
  /** `bytes`: the file's bytes when they are not UTF-8 (`content` holds U+FFFD for them), so a backup keeps them exactly. */
  | { kind: "file"; content: string; bytes?: Uint8Array; attributes?: FileAttributes }
  | { kind: "symlink"; target: string }
  | { kind: "directory"; attributes?: FileAttributes }
  | { kind: "other" };

/**
 * The host's files as tend sees them: every path resolved beneath the root (`--root DIR`, or `/`)
 * the way the init would see it there, and, as root, every write into a folder a non-root user
 * owns done by a child running as that user.
 */
export class LocalHostFiles implements HostFileAccess {
  /** The running host's own files (no root): a provider may read them itself (HostFiles.local). */
  readonly local: boolean;
  /** The real folder standing for `/`: the image root, or `/` itself. */
  readonly root: string;
  /** Folders seen since the last write: reads of a big spec resolve each folder once. */
  private readonly folders: FolderResolver;
  /**
   * When each file `inspect` read was last modified, by host path, until tend writes: a plan asks
   * for a definition's time after reading it, and gets the time of the content it read (no second
   * lstat; the init's commands in between, `sv status` say, do not count: they leave its files).
   */
  private readonly modified = new Map<string, number>();
  /**
   * What `inspect` read at each path, a symlink's target or a regular file's text, until tend
   * writes or runs a command (an init's command may link, unlink or rewrite: `systemctl enable`,
   * `rc-update`): a plan that reads an artifact and then has a provider ask where the same link
   * points (runit's boot prediction) or read the same file (systemd's `[Install]` section) reads
   * it once.
   */
  private readonly seen = new Map<string, Extract<PathContent, { kind: "symlink" | "file" }>>();

  constructor(
    root: string | undefined,
    private readonly scope: Scope,
  ) {
    this.root = root === undefined ? "/" : realRoot(root);
    this.local = root === undefined;
    this.folders = new FolderResolver(this.root, false);
  }

  /** Forgets the folders seen: a command ran that may have changed them. */
  forgetFolders(): void {
    this.folders.forget();
    this.seen.clear();
  }

  /** The real path of a host path (its folders resolved beneath the root; the last part as is). */
  real(path: string): string {
    try {
      return this.locate(path).real;
    } catch (error) {
      // Finding the folders on the way lstats them: one this user may not look into is named.
      throw fsError(error, "look at", path);
    }
  }

  /** A host path's real path, and whether its folder is there (nothing is in a missing folder or a file). */
  private locate(path: string): { real: string; inFolder: boolean } {
    if (!path.startsWith("/")) throw errors.unsafePath(path, "it is not an absolute path", { action: "use" });
    if (path === "/") return { real: this.root, inFolder: true };
    const folder = this.folders.resolve(normalizeFolder(dirname(path)));
    return { real: join(folder.real, basename(path)), inFolder: folder.kind === "folder" };
  }

  private read<T>(verb: string, path: string, read: (real: string) => T): Promise<T> {
    try {
      return Promise.resolve(read(this.real(path)));
    } catch (error) {
      return Promise.reject(fsError(error, verb, path));
    }
  }

  exists(path: string): Promise<boolean> {
    return this.read("look at", path, (real) => orNull(() => lstatSync(real, { throwIfNoEntry: false })) != null);
  }

  isDirectory(path: string): Promise<boolean> {
    return this.read("look at", path, () => this.folders.resolve(normalizeFolder(path)).kind === "folder");
  }

  readFile(path: string): Promise<string | null> {
    const seen = this.seen.get(path);
    if (seen?.kind === "file") return Promise.resolve(seen.content);
    return this.read("read", path, (real) => readRegular(real));
  }

  /** When a file was last modified (ms since the epoch), never following a link there; null when absent. */
  modifiedAt(path: string): Promise<number | null> {
    const seen = this.modified.get(path);
    if (seen !== undefined) return Promise.resolve(seen);
    return this.read("look at", path, (real) => orNull(() => lstatSync(real))?.mtimeMs ?? null);
  }

  readLink(path: string): Promise<string | null> {
    const seen = this.seen.get(path);
    if (seen?.kind === "symlink") return Promise.resolve(seen.target);
    return this.read("read", path, (real) => orNull(() => readlinkSync(real, "utf8")));
  }

  readDir(path: string): Promise<string[] | null> {
    return this.read("list", path, () => {
      const found = this.folders.resolve(normalizeFolder(path));
      return found.kind === "folder" ? (orNull(() => readdirSync(found.real))?.sort() ?? null) : null;
    });
  }

  /** What is at a path, never following a link there: drift detection and refusals read this. */
  inspect(path: string): PathContent {
    try {
      const { real, inFolder } = this.locate(path);
      // Nothing is in a folder that is missing (or a file): no lstat to find that out.
      if (!inFolder) return { kind: "absent" };
      const info = orNull(() => lstatSync(real, { throwIfNoEntry: false }));
      if (!info) return { kind: "absent" };
      if (info.isSymbolicLink()) {
        const link = { kind: "symlink", target: readlinkSync(real, "utf8") } as const;
        this.seen.set(path, link);
        return link;
      }
      if (info.isDirectory()) {
        // Its files are often read next: their folder needs no second lstat.
        if (path !== "/" && normalizeFolder(path) === path) this.folders.learn(path, info);
        return { kind: "directory", attributes: attributesOf(info) };
      }
      if (!info.isFile()) return { kind: "other" };
      const read = readRegularFile(real);
      if (read === null) return { kind: "absent" };
      this.modified.set(path, info.mtimeMs);
      const file = { kind: "file", content: read.text, ...(read.bytes ? { bytes: read.bytes } : {}), attributes: attributesOf(info) } as const;
      this.seen.set(path, file);
      return file;
    } catch (error) {
      throw fsError(error, "read", path);
    }
  }

  shortfall(needs: readonly RoomNeed[]): Promise<Shortfall | undefined> {
    return Promise.resolve(shortfall(this.root, needs));
  }

  /** `inspect` for many paths at once. */
  inspectAll(paths: readonly string[]): Promise<PathContent[]> {
    try {
      return Promise.resolve(paths.map((path) => this.inspect(path)));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Owner for a new file: explicit names, else the scope's user in a user scope, else root. */
  ownership(owner?: string, group?: string): Ownership {
    const root = this.root === "/" ? undefined : this.root;
    const result: Ownership = {};
    if (owner) {
      const entry = lookupUser(owner, root);
      if (!entry) throw errors.usage(`unknown user \`${owner}\``, { field: "owner" });
      result.uid = entry.uid;
      result.gid = entry.gid;
    } else if (this.scope.kind === "user") {
      result.uid = this.scope.uid;
      result.gid = this.scope.gid;
    }
    if (group) {
      const gid = lookupGroup(group, root);
      if (gid === undefined) throw errors.usage(`unknown group \`${group}\``, { field: "group" });
      result.gid = gid;
    }
    return result;
  }

  async writeFile(path: string, content: string, options: { mode?: number; owner?: string; group?: string } = {}): Promise<void> {
    await this.performOne({ op: "write", path, content, mode: options.mode ?? 0o644, owner: this.ownership(options.owner, options.group) });
  }

  async symlink(path: string, target: string): Promise<void> {
    await this.performOne({ op: "symlink", path, target, owner: this.ownership() });
  }

  async remove(path: string): Promise<void> {
    const kind = this.inspect(path).kind === "symlink" ? "symlink" : "file";
    await this.performOne({ op: "remove", path, kind });
  }

  async removeDir(path: string, ephemeral: string[]): Promise<void> {
    await this.performOne({ op: "rmdir", path, ephemeral });
  }

  async mkdir(path: string, options: { mode?: number; owner?: string; group?: string } = {}): Promise<void> {
    await this.performOne({ op: "mkdir", path, mode: options.mode ?? 0o755, owner: this.ownership(options.owner, options.group) });
  }

  private async performOne(operation: FileOperation): Promise<void> {
    const [failure] = await this.perform([operation]);
    if (failure) throw failure;
  }

  /**
   * Performs operations in order; one result per operation (null when it worked). Runs of
   * operations landing in folders a user owns go to one child running as that user.
   */
  async perform(operations: FileOperation[]): Promise<(TendError | null)[]> {
    this.folders.forget();
    this.modified.clear();
    this.seen.clear();
    const folders = new FolderResolver(this.root);
    if (operations.length > 0 && !existsSync(this.root)) {
      try {
        mkdirSync(this.root, { recursive: true, mode: 0o755 });
      } catch (error) {
        const failure = fsError(error, "make the image root", this.root);
        return operations.map(() => failure);
      }
    }
    const results: (TendError | null)[] = new Array(operations.length).fill(null);
    let index = 0;
    while (index < operations.length) {
      let actor: Actor;
      try {
        actor = this.actorOf(operations[index]!, folders);
      } catch (error) {
        results[index] = fsError(error, "write", operations[index]!.path);
        index += 1;
        continue;
      }
      let end = index + 1;
      while (end < operations.length && sameActor(this.safeActorOf(operations[end]!, folders), actor)) end += 1;
      const batch = operations.slice(index, end);
      const failures = actor.kind === "self" ? performLocally(this.root, batch) : await performAsUser(actor, this.root, batch);
      if (batch.some((o) => o.op === "mkdir" || o.op === "rmdir" || o.op === "write" || o.op === "symlink" || o.op === "append")) folders.forget();
      failures.forEach((failure, i) => (results[index + i] = failure && failureError(failure)));
      index = end;
    }
    this.folders.forget();
    return results;
  }

  private safeActorOf(operation: FileOperation, folders: FolderResolver): Actor | undefined {
    try {
      return this.actorOf(operation, folders);
    } catch {
      return undefined;
    }
  }

  private actorOf(operation: FileOperation, folders: FolderResolver): Actor {
    if (!runsAsRoot()) return { kind: "self" };
    const actor = actorFor(this.root, folders.resolve(dirname(operation.path)).owners, operation.path);
    if (actor.kind === "user" && "owner" in operation && operation.owner?.uid !== undefined && operation.owner.uid !== actor.uid) {
      throw errors.unsafePath(
        operation.path,
        `it lives in a folder ${actor.name} owns, where tend writes only as ${actor.name}, so it cannot belong to uid ${operation.owner.uid}`,
      );
    }
    return actor;
  }
}

/** A file's or folder's attributes as lstat gave them: its owner only as root, who can set one. */
function attributesOf(info: Stats): FileAttributes {
  return runsAsRoot() ? { mode: info.mode & 0o7777, uid: info.uid, gid: info.gid } : { mode: info.mode & 0o7777 };
}

/** The image root's real path; one that does not exist yet is made at the first write. */
function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return resolve(root);
  }
}

function sameActor(a: Actor | undefined, b: Actor): boolean {
  if (!a) return false;
  return a.kind === "self" ? b.kind === "self" : b.kind === "user" && a.uid === b.uid;
}

/** A host folder path in the one spelling the resolver caches (no trailing slash, no empty parts). */
function normalizeFolder(path: string): string {
  // Almost every path tend reads is spelled so already (its state and its renderers make them).
  return NORMAL_PATH_PATTERN.test(path) ? path : `/${hostPathParts(path).join("/")}`;
}
