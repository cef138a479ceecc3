import { artifactId } from "../plan/artifact-id.js";
import { contentHash } from "../plan/content-hash.js";
import type { ArtifactWrite } from "../plan/plan-types.js";
import type { RecordedArtifact } from "../state/state-file.js";

/**
 * Each write's content hash, computed once: the intent records it as `writing` and the
 * confirmation as `hash`, so both share one string (a big apply hashes every file it writes).
 */
const hashes = new WeakMap<ArtifactWrite, string>();

function hashOf(write: ArtifactWrite, content: string): string {
  let hash = hashes.get(write);
  if (hash === undefined) hashes.set(write, (hash = contentHash(content)));
  return hash;
}

/**
 * The artifacts to record before writing (the journal's intent): every artifact to be written
 * keeps what it had and gains `writing`, the hash about to land, so content with either hash
 * counts as tend's whatever moment the apply is killed at.
 */
export function intendedArtifacts(recorded: RecordedArtifact[], writes: ArtifactWrite[]): RecordedArtifact[] {
  const out = recorded.map((r) => ({ ...r }));
  const byId = new Map(out.map((r) => [artifactId(r), r]));
  for (const write of writes) {
    if (write.content === null) continue;
    const id = artifactId({ store: write.artifact.store ?? "file", path: write.artifact.path });
    const hash = hashOf(write, write.content);
    const record = byId.get(id);
    if (record) record.writing = hash;
    else {
      const fresh: RecordedArtifact = { store: write.artifact.store ?? "file", path: write.artifact.path, hash: null, writing: hash, ...(write.artifact.ephemeral ? { ephemeral: write.artifact.ephemeral } : {}) };
      out.push(fresh);
      byId.set(id, fresh);
    }
  }
  return out;
}

/** The artifacts once writes are done: written ones confirmed with their hash, deleted ones gone. */
export function confirmedArtifacts(recorded: RecordedArtifact[], done: ArtifactWrite[]): RecordedArtifact[] {
  const byId = new Map(recorded.map((r) => [artifactId(r), { ...r }]));
  for (const write of done) {
    const store = write.artifact.store ?? "file";
    const id = artifactId({ store, path: write.artifact.path });
    if (write.content === null) {
      byId.delete(id);
      continue;
    }
    const ephemeral = write.artifact.ephemeral ?? byId.get(id)?.ephemeral;
    byId.set(id, { store, path: write.artifact.path, hash: hashOf(write, write.content), ...(ephemeral ? { ephemeral } : {}) });
  }
  return [...byId.values()];
}
