import type { Operation } from "../contract/change.js";
import type { Resource } from "../model/resource-schema.js";

/** One artifact tend wrote, as recorded: where, in which store, and the hash of what it wrote. */
export interface RecordedArtifact {
  store: string;
  path: string;
  /** Hash of the content tend last wrote and saw through; null when a write was begun but never confirmed. */
  hash: string | null;
  /**
   * Hash of a write begun and not yet confirmed (the journal's intent). Content with this hash
   * is tend's too: an apply killed after the write and before its confirmation loses nothing.
   */
  writing?: string;
  /** For a directory: entries the init creates inside it, removed with it. */
  ephemeral?: string[];
}

export interface RecordedResource {
  /** The resource as last applied (a file's `content` replaced by its hash). */
  resource: Resource;
  provider: string;
  artifacts: RecordedArtifact[];
  /** The version the host had installed when tend last applied it (a package), from its observation. */
  version?: string;
  /**
   * The restart ledger: operations an apply set out to do and has not carried out and verified.
   * Recorded before the change that makes them necessary is written, so a run that fails or is
   * killed leaves them here, and the next plan and apply carry them out.
   */
  pending?: Operation[];
  /** Why each pending operation is needed, in plan wording (`file:web-config changed`). */
  pendingWhy?: Partial<Record<Operation, string>>;
}

/** The state file: every resource tend manages in one scope and every file it wrote. */
export interface StateFile {
  version: 2;
  /** Incremented on every save. */
  serial: number;
  resources: Record<string, RecordedResource>;
  /** Small bags providers keep (s6's database generation, a replaced default target). */
  providers: Record<string, Record<string, unknown>>;
}

export function emptyState(): StateFile {
  return { version: 2, serial: 0, resources: {}, providers: {} };
}
