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
  /** Why: `new`, `changed`, `edited`, `deleted`, `adopted`, `obsolete`. */
  why: "new" | "changed" | "edited" | "deleted" | "adopted" | "obsolete" | "removed";
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
  /** Drift found on the host (`/etc/…/tend-web.service was edited`). */
  drift: string[];
  /** Target paths that hold files tend did not write; apply refuses them without --adopt. */
  conflicts: string[];
  writes: ArtifactWrite[];
  /** The artifacts the resource renders to now (empty for a removal). */
  artifacts: Artifact[];
  observation?: Observation;
  /** One line for the plan (`syncthing serve --no-browser`, `enable the distro unit`). */
  summary: string;
}

export interface Plan {
  host: HostFacts;
  scope: Scope;
  /** Adds and changes in dependency order, then removals in reverse dependency order. */
  entries: PlanEntry[];
  /** The state serial the plan was computed from. */
  serial: number;
}

export function planCounts(plan: Plan): { add: number; change: number; remove: number } {
  const count = (action: PlanEntry["action"]) => plan.entries.filter((e) => e.action === action).length;
  return { add: count("add"), change: count("change"), remove: count("remove") };
}

export function hasChanges(plan: Plan): boolean {
  return plan.entries.some((e) => e.action !== "none");
}
