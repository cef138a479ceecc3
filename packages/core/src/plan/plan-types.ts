import type { Artifact } from "../contract/artifact.js";
import type { Operation } from "../contract/change.js";
import type { HostFacts, Scope } from "../contract/host.js";
import type { Observation } from "../contract/observation.js";
import type { Resource } from "../model/resource-schema.js";

/** An artifact to write (content) or delete (null), with what was on disk when planning. */
export interface ArtifactWrite {
  artifact: Artifact;
  content: string | null;
  /** What the host held at plan time (null = absent); stores use it to refuse a changed target. */
  current: string | null;
  /** `current`'s bytes when they are not UTF-8 (`current` holds U+FFFD for them): what a backup keeps. */
  currentBytes?: Uint8Array;
  /**
   * Why: `new`, `changed`, `edited`, `deleted`, `adopted`, `obsolete`, `removed`; `unrecorded`
   * when the bytes on disk are already right and only the state lacks them (an apply killed
   * between its write and the write's confirmation): nothing is written, the state catches up;
   * `attributes` when the bytes are right and only the file's mode or owner is not: they are set
   * in place, and the init is not told (it reads the same definition).
   */
  why: "new" | "changed" | "edited" | "deleted" | "adopted" | "obsolete" | "removed" | "unrecorded" | "attributes";
  /** An `adopted` file that the package of this name installed earlier in the same apply (see takeOverPackageCopies). */
  installedBy?: string;
}

/** Whether a write changes what the init reads (bytes, or whether the file exists), not only a file's mode or owner. */
export function changesContent(write: ArtifactWrite): boolean {
  return write.why !== "attributes";
}

/**
 * Whether the init must load the entry's definition again (a provider's `filesChanged`): its files'
 * content changed in this apply, or the init runs an older definition than they hold.
 */
export function definitionChanged(entry: PlanEntry): boolean {
  return entry.writes.some(changesContent) || entry.staleDefinition === true;
}

export interface PlanEntry {
  /** `service:web`. */
  key: string;
  action: "add" | "change" | "remove" | "none";
  resource: Resource;
  previous?: Resource;
  /** Provider name; `core` for `file` resources. */
  provider: string;
  ops: Operation[];
  reasons: string[];
  /**
   * Why a restart or reload is needed (`file:web-config changed`), for the ledger: apply records
   * it with the pending operation, and a later plan names it if this apply does not finish.
   */
  causes?: Partial<Record<Operation, string>>;
  /**
   * The running services the init restarts along with this one, as they come after it (see the
   * `dependentsRestart` capability): plan names them, and apply verifies them with it.
   */
  alsoRestarts?: string[];
  /** The init runs an older definition than the files on disk: apply tells the provider, as if they had just been written. */
  staleDefinition?: boolean;
  /** Drift found on the host (`/etc/…/tend-web.service was edited`). */
  drift: string[];
  /** Target paths that hold files tend did not write; apply refuses them without --adopt. */
  conflicts: string[];
  /** Conflicts that carry tend's managed header: files tend wrote and lost track of (`--adopt` takes them back). */
  orphans: string[];
  /** Files tend wrote and would delete, edited since: apply deletes them only with --adopt (keeping a backup). */
  editedDeletions: string[];
  /** Targets apply refuses whatever the flags: a link (a `/dev/null` mask), a folder or a device where a file goes. */
  refusals: { path: string; what: string }[];
  /** Reported and left alone: things that change what tend owns without being tend's (a foreign drop-in). */
  warnings: string[];
  writes: ArtifactWrite[];
  /** The artifacts the resource renders to now (empty for a removal). */
  artifacts: Artifact[];
  observation?: Observation;
  /** One line for the plan (`syncthing serve --no-browser`, `enable the distro unit`, `the distro unit, kept disabled`). */
  summary: string;
}

export interface Plan {
  host: HostFacts;
  /** How messages name the host's init (`OpenRC`). */
  initDisplayName: string;
  scope: Scope;
  /** Adds and changes in dependency order, then removals in reverse dependency order. */
  entries: PlanEntry[];
  /** Things about the scope as a whole: state entries left out, orphans no resource claims. */
  warnings: string[];
  /** The state serial the plan was computed from. */
  serial: number;
  /** Services and timers of the other scope that this run leaves out (and, in a system run, the Files a user service names), and how to apply them. */
  otherScope?: { count: number; scope: "user" | "system"; command: string };
}

export function planCounts(plan: Plan): { add: number; change: number; remove: number } {
  const counts = { add: 0, change: 0, remove: 0 };
  for (const entry of plan.entries) if (entry.action !== "none") counts[entry.action] += 1;
  return counts;
}

export function hasChanges(plan: Plan): boolean {
  return plan.entries.some((e) => e.action !== "none");
}
