import type { TendError } from "../errors/tend-error.js";
import type { ResourceType } from "../model/resource-schema.js";
import type { Artifact, ArtifactStore } from "./artifact.js";
import type { Capabilities } from "./capabilities.js";
import type { ResourceChange, Operation, ResourceOf } from "./change.js";
import type { ApplyContext, ReadContext, RenderContext } from "./context.js";
import type { InitName } from "./host.js";
import type { Observation, Probe } from "./observation.js";

/** The contract version this @tend/core speaks. A provider names the one it implements. */
export const API_VERSION = 1 as const;

/**
 * A provider: everything tend needs to know about one init (or, for cron, one way of running
 * timers). Build it with {@link defineProvider} and make it the package's default export; the
 * package's package.json carries `"tend": { "provider": { "apiVersion": 1 } }` so discovery can
 * find it without importing it.
 *
 * The core owns the graph, ordering, diffing artifacts against disk and state, writing safely,
 * the state file, the lock, the plan and its output, and verification timing. A provider answers
 * only what is init-specific, through the members below.
 */
export interface ProviderDefinition<T extends ResourceType = ResourceType> {
  /** The contract version implemented; must equal {@link API_VERSION}. */
  apiVersion: typeof API_VERSION;
  /** Short name, shown by `tend providers` (`systemd`, `cron`). */
  name: string;
  /**
   * Which hosts and resource types it serves. The cron provider serves `timer` on the inits that
   * have no timers of their own; an init's provider lists only the types it implements.
   */
  serves: {
    /** The inits it serves its types on natively. */
    inits: InitName[];
    types: T[];
    /** Serves its types on any init that does not run them natively (cron serves timers there). */
    fallback?: boolean;
  };
  /** What it can express, as data (see {@link Capabilities}). */
  capabilities: Capabilities;
  /**
   * Init-specific checks beyond the capabilities (e.g. cron's name rule, launchd's 64-entry cap).
   * Pure. Return the errors; an empty list means the resource can be expressed.
   */
  check?(resource: ResourceOf<T>, ctx: RenderContext): TendError[];
  /**
   * What plan should point out about a resource the provider can express but not quite as
   * written (an escape-hatch directive that replaces a line tend generated from another field).
   * Pure. Shown as warnings; they never fail the plan.
   */
  warnings?(resource: ResourceOf<T>, ctx: RenderContext): string[];
  /**
   * The artifacts a resource becomes. Pure: same input, same bytes, in the order they should be
   * written (a link that enables a service after the files it points at).
   */
  render(resource: ResourceOf<T>, ctx: RenderContext): Artifact[];
  /**
   * Observe many resources at once: one batched query per init, not one process per unit. Keys
   * are resource keys (`service:web`). Read-only: only commands that change nothing.
   */
  observe(resources: ResourceOf<T>[], ctx: ReadContext): Promise<Map<string, Observation>>;
  /**
   * Checks that depend on the host (a distro unit whose files are missing, a `need net` nothing
   * provides, dinit's boot service without `waits-for.d`). Run at plan time with the
   * observations; errors fail the plan before anything is written.
   */
  checkHost?(resources: ResourceOf<T>[], observations: Map<string, Observation>, ctx: ReadContext): Promise<TendError[]>;
  /**
   * Operations this resource must never be given (systemd units with `RefuseManualStart` are
   * never started, stopped or restarted by apply). The planner leaves them out, and verification
   * does not hold the resource to a state it was not allowed to reach. `observation` is what
   * `observe` reported for it (a distro unit's own refusal is known only from the host); absent
   * for a resource being removed.
   */
  refusedOperations?(resource: ResourceOf<T>, observation?: Observation): Operation[];
  /** Carry out an add or change: `change.ops` in order. Runs after all artifacts are written and `afterWrites`. */
  apply(change: ResourceChange<T>, ctx: ApplyContext): Promise<void>;
  /**
   * Carry out many adds and changes at once: one wave, in which no change depends on another,
   * so the init can be asked once (`systemctl enable --now a b c`) instead of once per unit.
   * Resolve with the failures by resource key (a key left out succeeded). When present, the
   * core calls it instead of `apply`.
   */
  applyBatch?(changes: ResourceChange<T>[], ctx: ApplyContext): Promise<Map<string, unknown>>;
  /** A removal, before the core deletes its recorded artifacts: stop and disable. */
  remove(change: ResourceChange<T>, ctx: ApplyContext): Promise<void>;
  /** Many removals at once (one wave), as {@link applyBatch} is to `apply`. */
  removeBatch?(changes: ResourceChange<T>[], ctx: ApplyContext): Promise<Map<string, unknown>>;
  /**
   * Folders this provider writes its own files into, with the prefix their names start with
   * (`{ dir: "/etc/sv", prefix: "tend-" }`). After a lost state, files there carrying tend's
   * header that no state records are reported as orphans instead of being forgotten.
   */
  managedFolders?(ctx: RenderContext): { dir: string; prefix: string }[];
  /**
   * Once per apply, after every artifact of every resource in this scope was written or deleted
   * and before any `apply`: `systemctl daemon-reload`, s6-rc's compile and switch. `paths` lists
   * every host path written or deleted, including `file` resources.
   */
  afterWrites?(changes: ResourceChange<T>[], paths: string[], ctx: ApplyContext): Promise<void>;
  /** Health readings for verification, for many resources at once. */
  probe?(resources: ResourceOf<T>[], ctx: ReadContext): Promise<Map<string, Probe>>;
  /**
   * How long a started service may take to come up before the settle window begins (runit's
   * scan takes up to 5 s). Default 5000 ms.
   */
  startTimeoutMs?: number;
  /** The last log lines of a service, shown when it fails verification. */
  logs?(resource: ResourceOf<T>, ctx: ReadContext): Promise<string[]>;
  /** Artifact stores for artifacts that are not whole files (see {@link ArtifactStore}). */
  stores?: Record<string, ArtifactStore>;
}

/**
 * Declares a provider, checking its shape at compile time. The resource types it serves type its
 * hooks: a provider serving only services is handed only Services.
 */
export function defineProvider<T extends ResourceType>(provider: ProviderDefinition<T>): ProviderDefinition<T> {
  return provider;
}
