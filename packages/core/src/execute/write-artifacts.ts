import { join } from "node:path";
import type { ProviderDefinition } from "../contract/provider.js";
import type { TendError } from "../errors/tend-error.js";
import type { FileOperation } from "../files/file-operation.js";
import type { RoomNeed } from "../files/room-needed.js";
import { artifactId } from "../plan/artifact-id.js";
import { contentHash } from "../plan/content-hash.js";
import { attributesText, modeOf } from "../plan/file-attributes.js";
import type { ArtifactWrite, PlanEntry } from "../plan/plan-types.js";
import { isCoreStore, providerStore } from "../session/artifact-stores.js";
import { providerContext } from "../session/provider-context.js";
import { asTendError, type Session } from "../session/session.js";
import type { RecordedArtifact, StateFile } from "../state/state-file.js";

/**
 * Carries out the writes and deletions of many resources: copies of edited or adopted content
 * into `backupDir` first, as a batch of their own (a resource whose copy could not be made writes
 * and deletes nothing), then the core's files as one ordered batch, then each provider store's
 * share in one call. Writes that only catch the state up (`unrecorded`) touch nothing. Each file
 * must still hold what the plan read there when it is replaced or deleted (nothing, for one this
 * apply already `deleted`); one that changed meanwhile is left as it is and fails its resource.
 * Returns the first failure of each resource that had one.
 */
export async function writeArtifacts(
  session: Session,
  entries: PlanEntry[],
  state: StateFile,
  assigned: Map<string, ProviderDefinition>,
  backupDir: string,
  deleted: ReadonlySet<string> = new Set(),
): Promise<Map<string, TendError>> {
  const failures = new Map<string, TendError>();
  const fail = (key: string, error: TendError | null) => {
    if (error && !failures.has(key)) failures.set(key, error);
  };
  // The copies first, as a batch of their own: a file whose copy could not be made is neither
  // replaced nor deleted, so an edit is never lost without its copy.
  const backups: FileOperation[] = [];
  const backupOwners: string[] = [];
  const recordedOf = new Map(entries.map((entry) => [entry.key, recordedArtifacts(state, entry.key)]));
  for (const entry of entries) {
    const recorded = recordedOf.get(entry.key)!;
    try {
      for (const write of entry.writes) {
        if (write.why === "unrecorded") continue;
        const store = write.artifact.store ?? "file";
        if (!needsBackup(write, recorded.get(artifactId({ store, path: write.artifact.path })))) continue;
        // The bytes the plan read, exactly: an edit saved in Latin-1 is kept as it was.
        backups.push({ op: "write", path: backupPath(backupDir, store, write.artifact.path), content: write.currentBytes ?? write.current!, mode: 0o600, owner: session.files.ownership() });
        backupOwners.push(entry.key);
      }
    } catch (error) {
      failures.set(entry.key, asTendError(error, entry.key, undefined));
    }
  }
  if (backups.length > 0) (await session.files.perform(backups)).forEach((error, index) => fail(backupOwners[index]!, error));
  const operations: FileOperation[] = [];
  const owners: string[] = [];
  const custom = new Map<string, { key: string; write: ArtifactWrite }[]>();
  for (const entry of entries) {
    if (failures.has(entry.key)) continue;
    const recorded = recordedOf.get(entry.key)!;
    try {
      for (const write of entry.writes) {
        if (write.why === "unrecorded") continue;
        const store = write.artifact.store ?? "file";
        const record = recorded.get(artifactId({ store, path: write.artifact.path }));
        if (!isCoreStore(store)) {
          const list = custom.get(store) ?? [];
          list.push({ key: entry.key, write });
          custom.set(store, list);
          continue;
        }
        operations.push(coreOperation(session, write, record, deleted.has(write.artifact.path) ? null : write.current));
        owners.push(entry.key);
      }
    } catch (error) {
      failures.set(entry.key, asTendError(error, entry.key, undefined));
    }
  }
  (await session.files.perform(operations)).forEach((error, index) => fail(owners[index]!, error));
  for (const [storeName, list] of custom) {
    const pending = list.filter((item) => !failures.has(item.key));
    if (pending.length === 0) continue;
    const owner = providerStore(assigned.values(), storeName);
    try {
      await owner.store.write(
        pending.map(({ write }) => ({ artifact: write.artifact, content: write.content, expected: write.current })),
        providerContext(session.parts, state, owner.provider.name),
      );
    } catch (error) {
      for (const { key } of pending) if (!failures.has(key)) failures.set(key, asTendError(error, key, owner.provider.name));
    }
  }
  return failures;
}

/**
 * What the core's share of `entries` stages on disk, backups included: each file's bytes (a
 * link's or folder's none), for the room check an apply makes before it changes anything.
 */
export function roomNeeds(entries: PlanEntry[], state: StateFile, backupDir: string): RoomNeed[] {
  const needs: RoomNeed[] = [];
  for (const entry of entries) {
    const recorded = recordedArtifacts(state, entry.key);
    for (const write of entry.writes) {
      const store = write.artifact.store ?? "file";
      if (write.why === "unrecorded" || write.why === "attributes" || !isCoreStore(store)) continue;
      if (needsBackup(write, recorded.get(artifactId({ store, path: write.artifact.path })))) {
        needs.push({ path: backupPath(backupDir, store, write.artifact.path), bytes: write.currentBytes?.length ?? Buffer.byteLength(write.current!) });
      }
      if (write.content !== null) needs.push({ path: write.artifact.path, bytes: store === "file" ? Buffer.byteLength(write.content) : 0 });
    }
  }
  return needs;
}

/** What the state recorded of a resource's artifacts, by artifactId. */
function recordedArtifacts(state: StateFile, key: string): Map<string, RecordedArtifact> {
  return new Map((state.resources[key]?.artifacts ?? []).map((r) => [artifactId(r), r]));
}

/** Content tend did not write and is about to replace or delete is kept first, as Puppet's filebucket does (its own interim content is not kept). */
function needsBackup(write: ArtifactWrite, record: RecordedArtifact | undefined): boolean {
  if (write.current === null || write.current === "" || write.why === "new" || write.current === write.artifact.interim) return false;
  if (!record) return true;
  const hash = contentHash(write.current);
  return hash !== record.hash && hash !== record.writing;
}

/** Whether a write deletes a folder: one that holds something tend did not write stays (see FileOperation's rmdir). */
export function deletesFolder(write: ArtifactWrite): boolean {
  return write.content === null && write.artifact.store === "directory";
}

function backupPath(backupDir: string, store: string, path: string): string {
  return join(backupDir, store, path.replace(/^\/+/, "").replace(/[^A-Za-z0-9_./-]/g, "_").replace(/(^|\/)\.\.?(?=\/|$)/g, "$1_"));
}

/** The file operation for a write; `expected` is what must still be at its path (see FileOperation). */
function coreOperation(session: Session, write: ArtifactWrite, record: RecordedArtifact | undefined, expected: string | null): FileOperation {
  const artifact = write.artifact;
  const store = artifact.store ?? "file";
  const path = artifact.path;
  if (write.content === null) {
    if (store === "directory") return { op: "rmdir", path, ephemeral: record?.ephemeral ?? artifact.ephemeral ?? [] };
    return { op: "remove", path, kind: store === "symlink" ? "symlink" : "file", expected };
  }
  const owner = session.files.ownership(artifact.owner, artifact.group);
  if (write.why === "attributes") {
    const kind = store === "directory" ? "directory" : "file";
    return { op: "attributes", path, kind, mode: modeOf(artifact), owner, ...(kind === "file" ? { expected } : {}) };
  }
  if (store === "directory") return { op: "mkdir", path, mode: modeOf(artifact), owner };
  if (store === "symlink") return { op: "symlink", path, target: write.content, owner: session.files.ownership(), expected };
  return { op: "write", path, content: write.content, mode: modeOf(artifact), owner, expected };
}

/**
 * One line for the apply log. `stayed`: a folder to delete is still there after its deletion, as
 * it held something tend did not write (such a folder is kept, and no longer tend's).
 */
export function describeWrite(write: ArtifactWrite, stayed = false): string {
  const store = write.artifact.store ?? "file";
  if (write.why === "attributes") return `set ${write.artifact.path} to ${attributesText(write.artifact)}`;
  const kept =
    write.why === "edited"
      ? " (it was edited; the edited copy is kept under backups/)"
      : write.installedBy !== undefined
        ? ` (${write.installedBy} installed it in this apply; its copy is kept under backups/)`
        : write.why === "adopted"
          ? " (adopted; the old copy is kept under backups/)"
          : "";
  if (write.content === null && stayed) return `kept ${write.artifact.path}/, which holds files tend did not write; it is no longer tend's`;
  if (write.content === null) return `deleted ${write.artifact.path}${kept}`;
  const what = store === "directory" ? `made ${write.artifact.path}/` : store === "symlink" ? `linked ${write.artifact.path} -> ${write.content}` : `wrote ${write.artifact.path}`;
  return `${what}${kept}`;
}
