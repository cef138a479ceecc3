import type { HostFileWriter } from "../contract/context.js";
import type { Scope } from "../contract/host.js";
import type { Runner } from "../contract/runner.js";
import type { TendError } from "../errors/tend-error.js";
import type { Ownership } from "../files/atomic-write.js";
import type { FileOperation } from "../files/file-operation.js";
import type { RoomNeed, Shortfall } from "../files/room-needed.js";
import { LocalHostFiles, type PathContent } from "../files/host-files.js";
import { ProcessRunner } from "../runner/process-runner.js";
import { ScopeLock } from "../state/scope-lock.js";

/**
 * A host's files as the engine uses them: what providers get (HostFileWriter), plus what only
 * core does — batched reads for drift, ownership from the host's own user database, and a whole
 * batch of operations committed the way a journal commits (see WriteBatch).
 */
export interface HostFileAccess extends HostFileWriter {
  /** The real folder standing for `/` (`--root DIR`, or `/`). */
  readonly root: string;
  /** What is at each path, never following a link there: one batch (one round trip on a remote host). */
  inspectAll(paths: readonly string[]): Promise<PathContent[]>;
  /** When a file was last modified (ms since the epoch), never following a link there; null when absent. */
  modifiedAt(path: string): Promise<number | null>;
  /** Owner for a new file: explicit names from the host's user database, else the scope's user, else root. */
  ownership(owner?: string, group?: string): Ownership;
  /**
   * Performs operations in order, confined beneath the root, writes staged and committed as one
   * batch (temp files made durable, then renamed in order); one result per operation, null when
   * it worked. As root, operations in a folder a non-root user owns are performed as that user.
   */
  perform(operations: FileOperation[]): Promise<(TendError | null)[]>;
  /** Forgets what was learnt about folders: a command ran that may have changed them. */
  forgetFolders(): void;
  /**
   * The first file system without room for what an apply is about to stage (see firstShortfall
   * in files/room-needed.ts), or undefined: one round trip on a remote host. A host that cannot
   * tell leaves it out, and its apply meets a full disk at the write, where the batch is dropped
   * whole.
   */
  shortfall?(needs: readonly RoomNeed[]): Promise<Shortfall | undefined>;
}

/** One apply at a time per scope: held from `acquire` to `release` (or the holder's death). */
export interface HostLock {
  /** Takes the lock, waiting up to `timeoutMs` for the holder; TEND_LOCKED naming it otherwise. */
  acquire(timeoutMs?: number): Promise<void>;
  release(): void;
}

/**
 * Everything the engine touches a host through: its commands, its files, its lock. The machine
 * tend runs on is one implementation (LocalHostAccess); a host reached over a connection is
 * another (@tend/fleet's), and the planner and executor cannot tell them apart.
 */
export interface HostAccess {
  readonly runner: Runner;
  readonly files: HostFileAccess;
  /** The lock file at `hostPath` for `scope`. */
  lock(hostPath: string, scope: Scope): HostLock;
}

/** This machine (or an image root on it, with `--root DIR`). */
export class LocalHostAccess implements HostAccess {
  readonly files: LocalHostFiles;

  constructor(
    root: string | undefined,
    scope: Scope,
    readonly runner: Runner = new ProcessRunner(),
  ) {
    this.files = new LocalHostFiles(root, scope);
  }

  /**
   * The lock is one file whoever runs the apply, so the user and root acting for them exclude
   * each other. As root for another user it is taken by a child running as that user (root
   * never opens a path the user controls).
   */
  lock(hostPath: string, scope: Scope): HostLock {
    const path = this.files.real(hostPath);
    if (scope.kind === "user" && process.getuid?.() === 0 && scope.uid !== 0) return new ScopeLock(path, { asUser: { uid: scope.uid, gid: scope.gid } });
    return new ScopeLock(path);
  }
}
