import type { Artifact } from "../contract/artifact.js";
import type { Operation } from "../contract/change.js";
import type { HostFacts, Scope } from "../contract/host.js";
import type { Observation } from "../contract/observation.js";
import { errors } from "../errors/catalogue.js";
import { TendErrors, type TendError } from "../errors/tend-error.js";
import { canonicalReference } from "../model/reference.js";
import type { Resource } from "../model/resource-schema.js";
import type { RecordedArtifact, RecordedResource, StateFile } from "../state/state-file.js";
import { carriesManagedHeader } from "../model/managed-header.js";
import { artifactId } from "./artifact-id.js";
import { bootWarnings } from "./boot-warnings.js";
import { contentHash } from "./content-hash.js";
import { desiredOf } from "./desired-of.js";
import { orderResources } from "./order-resources.js";
import { describeMismatch, type AttributeMismatch } from "./file-attributes.js";
import { changesContent, type ArtifactWrite, type Plan, type PlanEntry } from "./plan-types.js";
import { noteRestartedDependents, type PlanProvider } from "./restarted-dependents.js";

export interface PlanInput {
  host: HostFacts;
  /** How messages name the host's init (`OpenRC`). */
  initDisplayName: string;
  scope: Scope;
  /** Declared resources in this scope, validated. */
  resources: Resource[];
  state: StateFile;
  /** Provider name, refused operations and what its init's restarts carry to dependents (its `dependentsRestart` capability), per resource key (declared and recorded). */
  providers: Map<string, PlanProvider>;
  rendered: Map<string, Artifact[]>;
  /** Current content of every artifact involved, by artifactId (null = absent). */
  current: Map<string, string | null>;
  /** The bytes of a file among them whose bytes are not UTF-8 (its `current` holds U+FFFD), by artifactId. */
  currentBytes?: Map<string, Uint8Array>;
  /**
   * Artifacts whose path holds something tend must not write through or over (a link where a
   * file goes, such as a `/dev/null` mask; a folder; a device), by artifactId, described.
   */
  obstacles?: Map<string, string>;
  /** Files tend wrote whose mode or owner is not what their artifact asks for, by artifactId (see wantedAttributes). */
  attributes?: Map<string, AttributeMismatch>;
  /** Things about the scope as a whole, reported with the plan (state entries left out, unclaimed orphans). */
  warnings?: string[];
  /** Providers' warnings about how they express a resource (see ProviderDefinition.warnings), by key. */
  notes?: Map<string, string[]>;
  observations: Map<string, Observation>;
  /** Stale builds: running services whose program or libraries were replaced on disk, described, by key. */
  replacedCode?: Map<string, string[]>;
  /** Loaded-definition drift: running services whose definition files changed after they started, described, by key. */
  olderDefinitions?: Map<string, string[]>;
  adopt: boolean;
  /** Under `--root`: nothing runs, so nothing is started, stopped, restarted or reloaded. */
  offline?: boolean;
}

/**
 * The plan: spec + state + observations in, ordered changes out. Pure: it reads nothing and
 * writes nothing, so it can be tested and property-checked without a host.
 */
export function planChanges(input: PlanInput): Plan {
  const problems: TendError[] = [];
  const declared = orderResources(input.resources.map((resource) => ({ key: `${resource.type}:${resource.name}`, resource })));
  const entries = new Map<string, PlanEntry>();
  for (const { key, resource } of declared) {
    const entry = planResource(key, resource, input, entries, problems);
    entries.set(key, entry);
  }
  const removals: PlanEntry[] = [];
  const recordedKeys = Object.keys(input.state.resources).filter((key) => !entries.has(key));
  const recorded = orderResources(recordedKeys.map((key) => ({ key, resource: input.state.resources[key]!.resource }))).reverse();
  for (const { key, resource } of recorded) {
    const record = input.state.resources[key]!;
    const warnings: string[] = [];
    const writes: ArtifactWrite[] = [];
    const editedDeletions: string[] = [];
    for (const a of record.artifacts.slice().reverse()) {
      const obstacle = input.obstacles?.get(artifactId(a));
      if (obstacle) warnings.push(`${a.path} is now ${obstacle}, not what tend wrote; tend leaves it in place`);
      else deletion(a, "removed", input, writes, editedDeletions);
    }
    removals.push({
      key,
      action: "remove",
      resource,
      previous: resource,
      provider: record.provider,
      ops: [],
      reasons: [],
      drift: [],
      conflicts: [],
      orphans: [],
      editedDeletions,
      refusals: [],
      warnings,
      writes,
      artifacts: [],
      summary: "",
    });
  }
  if (problems.length > 0) throw problems.length === 1 ? problems[0]! : new TendErrors(problems);
  noteRestartedDependents([...entries.values()], input.providers);
  return { host: input.host, initDisplayName: input.initDisplayName, scope: input.scope, entries: [...entries.values(), ...removals], warnings: input.warnings ?? [], serial: input.state.serial };
}

/**
 * An observation without its runtime state (under --root nothing runs). Left out rather than
 * set to undefined: V8 gives every copy that gains a property its own hidden class, 10,000 of
 * them for as many services.
 */
function withoutState(observation: Observation): Observation {
  const { state: _state, ...rest } = observation;
  return rest;
}

function summaryOf(resource: Resource): string {
  switch (resource.type) {
    case "service":
      return resource.exec ?? (resource.desired?.enabled === false ? "the distro unit, kept disabled" : "enable the distro unit");
    case "timer":
      return `${resource.schedule}  ${resource.exec}`;
    case "file":
      return resource.path;
    case "package":
      return resource.version ?? resource.state ?? "present";
  }
}

function planResource(key: string, resource: Resource, input: PlanInput, planned: Map<string, PlanEntry>, problems: TendError[]): PlanEntry {
  const record = input.state.resources[key];
  const artifacts = input.rendered.get(key) ?? [];
  const observed = input.observations.get(key);
  const observation = observed && input.offline ? withoutState(observed) : observed;
  const provider = input.providers.get(key);
  const entry: PlanEntry = {
    key,
    action: "none",
    resource,
    ...(record ? { previous: record.resource } : {}),
    provider: provider?.name ?? "core",
    ops: [],
    reasons: [],
    drift: [...(observation?.drift ?? [])],
    conflicts: [],
    orphans: [],
    editedDeletions: [],
    refusals: [],
    warnings: [...(input.notes?.get(key) ?? []), ...(observation?.warnings ?? [])],
    writes: [],
    artifacts,
    ...(observation ? { observation } : {}),
    summary: summaryOf(resource),
  };
  diffArtifacts(entry, record?.artifacts ?? [], input);
  // A mode or owner set right in place changes nothing the init reads: no restart for it.
  const filesChanged = entry.writes.some(changesContent);
  const ops = new Set<Operation>();
  const reasons: string[] = [];
  const causes: Partial<Record<Operation, string>> = {};
  if (filesChanged && record) causes.restart = "its definition changed";
  if (resource.type === "service") planService(resource, observation, filesChanged, ops, reasons);
  // What the init refuses to restart is only reported: it takes the new code when it next starts.
  const restartRefused = provider?.refused.includes("restart") === true;
  const replaced = input.offline ? undefined : input.replacedCode?.get(key);
  if (replaced && restartRefused) entry.warnings.push(...replaced.map((r) => `${r}; it refuses a manual restart, so tend leaves it running`));
  else if (replaced && resource.type === "service" && desiredOf(resource).state !== "stopped") {
    // Restart, never reload: a reload keeps the process that maps the old code.
    entry.drift.push(...replaced);
    ops.add("restart");
    causes.restart = causes.restart ? `${causes.restart} and it was ${replaced[0]}` : `it was ${replaced[0]}`;
  }
  const olderFound = [...(input.olderDefinitions?.get(key) ?? []), ...(observation?.olderDefinition ?? [])];
  const older = input.offline || filesChanged || olderFound.length === 0 ? undefined : olderFound;
  if (older && restartRefused) entry.warnings.push(...older.map((o) => `${o}; it refuses a manual restart, so tend leaves it running`));
  else if (older && (resource.type === "timer" || (resource.type === "service" && desiredOf(resource).state !== "stopped"))) {
    // The provider brings the init up to date as if the files had just been written, then restarts.
    entry.drift.push(...older);
    entry.staleDefinition = true;
    ops.add("restart");
    causes.restart ??= `it was ${older[0]}`;
  }
  if (resource.type === "timer") planTimer(observation, filesChanged, ops);
  if (resource.type === "service") planTriggers(key, resource, observation, input, record ? planned : new Map(), ops, reasons, causes, problems);
  const moved = versionMove(key, record?.version, observation?.version);
  if (moved) reasons.push(moved);
  // A restart an earlier apply left pending may follow files it wrote before the init loaded
  // them (killed before dinit's reload or systemd's daemon-reload): the provider loads them first.
  // (The /proc check above sees that only when the files are more than a second newer than the
  // process.)
  if (record && resumeLedger(record, resource, observation, ops, reasons, causes).includes("restart")) entry.staleDefinition = true;
  for (const op of provider?.refused ?? []) ops.delete(op);
  if (input.offline) for (const op of RUNTIME_OPS) ops.delete(op);
  if (ops.has("start") && ops.has("restart")) ops.delete("restart");
  if ((ops.has("start") || ops.has("restart")) && ops.has("reload")) ops.delete("reload");
  entry.ops = OP_ORDER.filter((op) => ops.has(op));
  entry.reasons.push(...reasons);
  if (resource.type === "service") entry.warnings.push(...bootWarnings(desiredOf(resource), observation, ops));
  const kept = Object.fromEntries(Object.entries(causes).filter(([op]) => ops.has(op as Operation)));
  if (Object.keys(kept).length > 0) entry.causes = kept;
  if (!record) entry.action = "add";
  else if (moved || entry.writes.length > 0 || entry.ops.length > 0 || entry.drift.length > 0 || entry.conflicts.length > 0 || entry.orphans.length > 0 || entry.editedDeletions.length > 0 || entry.refusals.length > 0) {
    entry.action = "change";
  }
  return entry;
}

const RUNTIME_OPS: Operation[] = ["start", "stop", "restart", "reload"];

function alreadyTrue(op: Operation, observation: Observation | undefined): boolean {
  if (observation?.exists !== true) return false;
  if (op === "start") return observation.state === "running";
  if (op === "stop") return observation.state === "stopped";
  if (op === "enable") return observation.enabled === true;
  if (op === "disable") return observation.enabled === false;
  return false;
}

/**
 * The restart ledger: operations an earlier apply recorded and never carried out and verified
 * (it failed or was killed after writing the change that needs them) are planned again, with
 * the change that made them necessary. A reload of a service that is not running is dropped
 * (starting it reads the new config), as is a start, stop, enable or disable the init already
 * reports done, and whatever the spec now wants otherwise (an apply of an earlier spec was
 * killed): a restart, reload or start of a service wanted stopped, a stop of one wanted running,
 * an enable or disable against its `enabled`.
 */
function resumeLedger(
  record: RecordedResource,
  resource: Resource,
  observation: Observation | undefined,
  ops: Set<Operation>,
  reasons: string[],
  causes: Partial<Record<Operation, string>>,
): Operation[] {
  const resumed: Operation[] = [];
  for (const op of record.pending ?? []) {
    if (ops.has(op) || alreadyTrue(op, observation) || wantedOtherwise(op, resource)) continue;
    if (op === "reload" && observation?.state === "stopped") continue;
    ops.add(op);
    resumed.push(op);
    const why = record.pendingWhy?.[op];
    if (why) causes[op] = why;
    reasons.push(why ? `${why} in an earlier apply; ${op} still pending` : `an earlier apply stopped before it could ${op}`);
  }
  return resumed;
}

/** Whether the spec now wants a service otherwise than `op` would leave it (a timer is always wanted enabled and started). */
function wantedOtherwise(op: Operation, resource: Resource): boolean {
  if (resource.type === "timer") return op === "stop" || op === "disable";
  if (resource.type !== "service") return false;
  const desired = desiredOf(resource);
  if (op === "enable" || op === "disable") return desired.enabled !== (op === "enable");
  if (op === "stop") return desired.state === "running";
  return desired.state === "stopped";
}

const OP_ORDER: Operation[] = ["stop", "disable", "enable", "start", "restart", "reload"];

/**
 * Compares each artifact with the host and the state. Content tend recorded (or had begun to
 * write, per the journal) is tend's: rewritten when outdated, only recorded when already right.
 * Content tend never recorded is a conflict (an orphan when it carries tend's header) unless
 * adopted; a link, folder or device where a file goes is refused outright.
 */
function diffArtifacts(entry: PlanEntry, recorded: RecordedArtifact[], input: PlanInput): void {
  const wanted = new Set(entry.artifacts.map(artifactId));
  const byId = new Map(recorded.map((r) => [artifactId(r), r]));
  for (const artifact of entry.artifacts) {
    const id = artifactId(artifact);
    const obstacle = input.obstacles?.get(id);
    if (obstacle) {
      entry.refusals.push({ path: artifact.path, what: obstacle });
      continue;
    }
    const record = byId.get(id);
    const current = input.current.get(id) ?? null;
    const ours = (text: string) => record !== undefined && (contentHash(text) === record.hash || contentHash(text) === record.writing);
    const bytes = input.currentBytes?.get(id);
    const write = (why: ArtifactWrite["why"]) => entry.writes.push({ artifact, content: artifact.content, current, ...(bytes ? { currentBytes: bytes } : {}), why });
    const store = artifact.store ?? "file";
    if (current !== null && current === artifact.content) {
      const mismatch = record || input.adopt ? input.attributes?.get(id) : undefined;
      if (mismatch) {
        // tend's (recorded, begun by it, or adopted): the bytes stay, the mode and owner are set right.
        const line = describeMismatch(artifact.path, mismatch);
        if (record && attributesAsked(entry.previous) === attributesAsked(entry.resource)) entry.drift.push(line);
        else entry.reasons.push(line);
        write("attributes");
        continue;
      }
      if (record && record.hash === contentHash(current) && record.writing === undefined) continue;
      // Right on disk, not (fully) recorded: an interrupted apply's write, or a link or folder
      // that is already exactly as wanted. A file tend never recorded stays the admin's.
      if (record || store === "symlink" || store === "directory" || input.adopt) write("unrecorded");
      else unclaimed(entry, artifact.path, current, store);
    } else if (current === null) {
      if (record && record.hash !== null) entry.drift.push(`${artifact.path} was deleted`);
      write(record && record.hash !== null ? "deleted" : "new");
    } else if (ours(current) || (store === "file" && current === artifact.interim)) {
      write("changed");
    } else if (record) {
      entry.drift.push(`${artifact.path} was edited`);
      write("edited");
    } else if (input.adopt) {
      write("adopted");
    } else {
      unclaimed(entry, artifact.path, current, store);
    }
  }
  // In the reverse of the order they were written, as a removal deletes them: a folder's files
  // before the folder (a folder still holding one is kept as not tend's to delete).
  for (const record of recorded.slice().reverse()) {
    const id = artifactId(record);
    if (wanted.has(id)) continue;
    const obstacle = input.obstacles?.get(id);
    if (obstacle) {
      entry.warnings.push(`${record.path} is now ${obstacle}, not what tend wrote; tend leaves it in place`);
      continue;
    }
    // Deleted even when already gone: a record an interrupted apply left must not outlive its file.
    deletion(record, "obsolete", input, entry.writes, entry.editedDeletions);
  }
}

/**
 * Deletes a file tend recorded; one edited since tend wrote it (bytes that are neither what it
 * recorded nor what it had begun to write) is the admin's now: deleted only with --adopt, after
 * a backup, and otherwise listed as an edited deletion, which apply refuses.
 */
function deletion(record: RecordedArtifact, why: "removed" | "obsolete", input: PlanInput, writes: ArtifactWrite[], edited: string[]): void {
  const current = input.current.get(artifactId(record)) ?? null;
  const bytes = input.currentBytes?.get(artifactId(record));
  const changed = current !== null && contentHash(current) !== record.hash && contentHash(current) !== record.writing;
  if (changed && !input.adopt) return void edited.push(record.path);
  writes.push({ artifact: { store: record.store, path: record.path, content: "" }, content: null, current, ...(bytes ? { currentBytes: bytes } : {}), why: changed ? "edited" : why === "obsolete" && current === null ? "unrecorded" : why });
}

/** What a resource asks of its files' modes and owners (a File's fields; other resources render theirs). */
function attributesAsked(resource: Resource | undefined): string {
  return resource?.type === "file" ? JSON.stringify([resource.mode, resource.owner, resource.group]) : "";
}

/** A target holding content tend never recorded: an orphan when it carries tend's header. */
function unclaimed(entry: PlanEntry, path: string, current: string, store: string): void {
  if (store === "file" && carriesManagedHeader(current)) entry.orphans.push(path);
  else entry.conflicts.push(path);
}

function planService(
  service: Extract<Resource, { type: "service" }>,
  observation: Observation | undefined,
  filesChanged: boolean,
  ops: Set<Operation>,
  reasons: string[],
): void {
  const desired = desiredOf(service);
  const known = observation?.exists === true;
  if (!known || observation?.enabled === undefined) {
    if (!known && desired.enabled) ops.add("enable");
  } else if (observation.enabled !== desired.enabled) {
    ops.add(desired.enabled ? "enable" : "disable");
    reasons.push(desired.enabled ? "not enabled at boot, want enabled" : "enabled at boot, want disabled");
  }
  if (desired.state === "running") {
    if (!known) ops.add("start");
    else if (observation?.state === "stopped") {
      ops.add("start");
      reasons.push("stopped, want running");
    } else if (filesChanged) ops.add("restart");
  } else if (desired.state === "stopped" && observation?.state === "running") {
    ops.add("stop");
    reasons.push("running, want stopped");
  }
}

function planTimer(observation: Observation | undefined, filesChanged: boolean, ops: Set<Operation>): void {
  const known = observation?.exists === true;
  if (!known || observation?.enabled === false) ops.add("enable");
  if (!known || observation?.state === "stopped") ops.add("start");
  else if (filesChanged) ops.add("restart");
}

function planTriggers(
  key: string,
  service: Extract<Resource, { type: "service" }>,
  observation: Observation | undefined,
  input: PlanInput,
  planned: Map<string, PlanEntry>,
  ops: Set<Operation>,
  reasons: string[],
  causes: Partial<Record<Operation, string>>,
  problems: TendError[],
): void {
  const desired = desiredOf(service);
  // Under --root nothing can be asked whether it reloads, and nothing reloads anyway.
  if (!input.offline && (service.reloadOn?.length ?? 0) > 0 && !service.reloadSignal && observation?.canReload !== true) {
    problems.push(errors.cannotReload(key, input.initDisplayName));
  }
  if (desired.state === "stopped") return;
  for (const [field, op] of [
    ["restartOn", "restart"],
    ["reloadOn", "reload"],
  ] as const) {
    for (const ref of service[field] ?? []) {
      const trigger = planned.get(canonicalReference(ref)!);
      if (!trigger || trigger.action === "none") continue;
      const moved = trigger.resource.type === "package" ? trigger.reasons.find((r) => r.startsWith(`${trigger.key} `)) : undefined;
      reasons.push(moved ?? `${trigger.key} changed, ${field} matched`);
      if (op === "reload" && observation?.state !== "running") continue;
      ops.add(op);
      const cause = moved ?? `${trigger.key} changed`;
      causes[op] = causes[op] ? `${causes[op]} and ${cause}` : cause;
    }
  }
}

/**
 * `package:nginx upgraded 1.2 → 1.3` when the version the host has installed is not the one the
 * state recorded at the last apply (an upgrade done outside tend), else undefined.
 */
function versionMove(key: string, recorded: string | undefined, observed: string | undefined): string | undefined {
  if (recorded === undefined || observed === undefined || recorded === observed) return undefined;
  const newer = observed.localeCompare(recorded, "en", { numeric: true }) > 0;
  return `${key} ${newer ? "upgraded" : "downgraded"} ${recorded} → ${observed}`;
}
