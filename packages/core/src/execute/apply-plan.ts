import { join } from "node:path";
import type { ResourceChange } from "../contract/change.js";
import type { ProviderDefinition } from "../contract/provider.js";
import { errors } from "../errors/catalogue.js";
import type { TendError } from "../errors/tend-error.js";
import { dependenciesOf } from "../model/validate-spec.js";
import { artifactId } from "../plan/artifact-id.js";
import { contentHash } from "../plan/content-hash.js";
import { isCoreStore, providerStore } from "../session/artifact-stores.js";
import type { ArtifactWrite, Plan, PlanEntry } from "../plan/plan-types.js";
import { desiredOf } from "../plan/plan-changes.js";
import { providerContext } from "../session/provider-context.js";
import { asTendError, type Session } from "../session/session.js";
import type { RecordedArtifact, StateFile } from "../state/state-file.js";
import { verifyServices, type VerifyTarget } from "./verify-services.js";

/** Thrown when an apply is told to stop (SIGINT, SIGTERM, SIGHUP): the current step finished and the state is saved. */
export class ApplyAborted extends Error {
  constructor() {
    super("apply stopped by a signal after finishing its current step; run apply again to finish");
    this.name = "ApplyAborted";
  }
}

export interface ApplyReport {
  ok: boolean;
  /** What was done, one line per step (`service:web: restarted`). */
  lines: string[];
  failures: TendError[];
}

const PAST: Record<string, string> = { enable: "enabled", disable: "disabled", start: "started", stop: "stopped", restart: "restarted", reload: "reloaded" };

/**
 * Carries out a plan: removals, then every write, then each provider's `afterWrites`, then the
 * operations in dependency order, then verification. The state is saved after every step, with
 * the pending operations journalled first, so an apply killed anywhere converges when re-run.
 * A failure stops the resources that depend on it, never the independent ones.
 */
export async function applyPlan(
  session: Session,
  plan: Plan,
  state: StateFile,
  assigned: Map<string, ProviderDefinition>,
  options: { adopt?: boolean; signal?: AbortSignal } = {},
): Promise<ApplyReport> {
  const lines: string[] = [];
  const failures: TendError[] = [];
  const failed = new Set<string>();
  const log = (line: string) => {
    lines.push(line);
    session.parts.log(line);
  };
  const parts = { ...session.parts, log };
  const ctxFor = (provider: ProviderDefinition) => providerContext(parts, state, provider.name);
  const providerOf = (entry: PlanEntry) => assigned.get(entry.key);
  const fail = (entry: PlanEntry, error: unknown) => {
    if (error instanceof ApplyAborted) throw error;
    failed.add(entry.key);
    failures.push(asTendError(error, entry.key, providerOf(entry)?.name));
  };
  /** A resource whose dependency failed is not applied: it fails too, naming the dependency. */
  const blocked = (entry: PlanEntry): boolean => {
    const blocker = dependenciesOf(entry.resource).find((dep) => failed.has(dep));
    if (blocker) fail(entry, errors.spec(`${entry.key} was not applied because ${blocker} failed`));
    return blocker !== undefined;
  };
  const conflicts = plan.entries.filter((e) => e.conflicts.length > 0);
  if (conflicts.length > 0 && !options.adopt) {
    throw conflicts.flatMap((e) => e.conflicts.map((path) => errors.conflict(e.key, path)))[0]!;
  }
  const active = plan.entries.filter((e) => e.action !== "none");
  if (active.length === 0) return { ok: true, lines, failures };
  const backupDir = join(session.stateStore.dir, "backups", new Date().toISOString().replace(/[:.]/g, "-"));
  const save = async () => {
    await session.stateStore.save(state);
    if (options.signal?.aborted) throw new ApplyAborted();
  };

  // 1. Journal what this apply sets out to do, before touching anything.
  for (const entry of active) {
    if (entry.action === "remove") continue;
    const record = state.resources[entry.key];
    state.resources[entry.key] = {
      resource: record?.resource ?? entry.resource,
      provider: entry.provider,
      artifacts: record?.artifacts ?? [],
      ...(entry.ops.length > 0 ? { pending: entry.ops } : {}),
    };
  }
  await save();

  // 2. Removals, dependents first.
  for (const entry of active.filter((e) => e.action === "remove")) {
    const provider = providerOf(entry);
    try {
      if (provider) await provider.remove(toChange(entry), ctxFor(provider));
      const recorded = state.resources[entry.key]?.artifacts ?? [];
      await writeArtifacts(session, entry, entry.writes, recorded, state, assigned, backupDir);
      delete state.resources[entry.key];
      await save();
      log(`${entry.key}: removed`);
    } catch (error) {
      fail(entry, error);
    }
  }

  // 3. Every write, in dependency order.
  const written: string[] = [];
  for (const entry of active.filter((e) => e.action !== "remove")) {
    if (entry.writes.length === 0 || blocked(entry)) continue;
    try {
      const record = state.resources[entry.key]!;
      await writeArtifacts(session, entry, entry.writes, record.artifacts, state, assigned, backupDir);
      record.resource = entry.resource;
      await save();
      written.push(...entry.writes.map((w) => w.artifact.path));
      for (const write of entry.writes) log(`${entry.key}: ${describeWrite(write)}`);
    } catch (error) {
      fail(entry, error);
    }
  }
  for (const path of active.filter((e) => e.action === "remove").flatMap((e) => e.writes.map((w) => w.artifact.path))) written.push(path);

  // 4. Once per provider: daemon-reload, compile, switch.
  for (const provider of new Set(assigned.values())) {
    if (!provider.afterWrites) continue;
    const mine = active.filter((e) => assigned.get(e.key) === provider);
    if (mine.length === 0 && written.length === 0) continue;
    try {
      await provider.afterWrites(mine.map(toChange), written, ctxFor(provider));
    } catch (error) {
      for (const entry of mine) fail(entry, error);
    }
  }

  // 5. Operations, dependencies first.
  const verifyTargets: VerifyTarget[] = [];
  for (const entry of active.filter((e) => e.action !== "remove")) {
    if (failed.has(entry.key) || blocked(entry)) continue;
    const provider = providerOf(entry);
    try {
      if (entry.resource.type === "service" && entry.resource.exec === undefined && entry.observation?.exists === false && provider) {
        // Missing when planned; a file written in this apply may have provided it since.
        const now = await provider.observe([entry.resource], ctxFor(provider));
        if (now.get(entry.key)?.exists !== true) throw errors.unitMissing(entry.key, entry.resource.name);
      }
      if (provider) {
        const ctx = ctxFor(provider);
        await provider.apply(toChange(entry), ctx);
        if (entry.resource.type === "service" && !session.offline && (entry.ops.includes("start") || entry.ops.includes("restart"))) {
          verifyTargets.push({ key: entry.key, resource: entry.resource, provider, ctx });
        }
      }
      const record = state.resources[entry.key];
      if (record) {
        record.resource = entry.resource;
        delete record.pending;
      }
      await save();
      const done = entry.ops.map((op) => PAST[op]!).join(", ");
      log(`${entry.key}: ${entry.action === "add" ? "added" : "changed"}${done ? `, ${done}` : ""}${entry.reasons.length > 0 ? ` (${entry.reasons.join("; ")})` : ""}`);
    } catch (error) {
      fail(entry, error);
    }
  }

  // 6. Verification: up, and still up with the same identity after the settle window.
  if (!session.offline && verifyTargets.length > 0) {
    const problems = await verifyServices(verifyTargets, (ms) => new Promise((r) => setTimeout(r, ms)));
    for (const problem of problems) {
      failed.add(problem.location.resource ?? "");
      failures.push(problem);
    }
    for (const target of verifyTargets) if (!failed.has(target.key)) log(`${target.key}: verified`);
  }
  // 7. The state the spec asked for is the state the init reports.
  if (!session.offline) failures.push(...(await checkDesired(session, active, assigned, state, failed)));
  await save();
  return { ok: failures.length === 0, lines, failures };
}

function describeWrite(write: ArtifactWrite): string {
  const store = write.artifact.store ?? "file";
  if (write.content === null) return `deleted ${write.artifact.path}`;
  const what = store === "directory" ? `made ${write.artifact.path}/` : store === "symlink" ? `linked ${write.artifact.path} -> ${write.content}` : `wrote ${write.artifact.path}`;
  return `${what}${write.why === "edited" ? " (it was edited; the edited copy is kept under backups/)" : write.why === "adopted" ? " (adopted; the old copy is kept under backups/)" : ""}`;
}

function toChange(entry: PlanEntry): ResourceChange {
  return {
    key: entry.key,
    action: entry.action === "none" ? "change" : entry.action,
    resource: entry.resource,
    ...(entry.previous ? { previous: entry.previous } : {}),
    ops: entry.ops,
    filesChanged: entry.writes.length > 0,
    reasons: entry.reasons,
  };
}

async function writeArtifacts(
  session: Session,
  entry: PlanEntry,
  writes: ArtifactWrite[],
  recorded: RecordedArtifact[],
  state: StateFile,
  assigned: Map<string, ProviderDefinition>,
  backupDir: string,
): Promise<void> {
  const files = session.files;
  const custom = new Map<string, ArtifactWrite[]>();
  for (const write of writes) {
    const store = write.artifact.store ?? "file";
    const record = recorded.find((r) => artifactId(r) === artifactId(write.artifact));
    const edited = write.current !== null && write.current !== "" && (!record || contentHash(write.current) !== record.hash) && write.why !== "new";
    if (edited) await files.writeFile(join(backupDir, store, write.artifact.path.replace(/^\/+/, "").replace(/[^A-Za-z0-9_./-]/g, "_")), write.current!, { mode: 0o600 });
    if (isCoreStore(store)) {
      await writeCoreArtifact(session, write, record);
    } else {
      custom.set(store, [...(custom.get(store) ?? []), write]);
    }
    updateRecord(recorded, write);
  }
  for (const [store, list] of custom) {
    const owner = providerStore(assigned.values(), store);
    await owner.store.write(
      list.map((w) => ({ artifact: w.artifact, content: w.content, expected: w.current })),
      providerContext(session.parts, state, owner.provider.name),
    );
  }
}

async function writeCoreArtifact(session: Session, write: ArtifactWrite, record: RecordedArtifact | undefined): Promise<void> {
  const files = session.files;
  const artifact = write.artifact;
  const store = artifact.store ?? "file";
  if (write.content === null) {
    if (store === "directory") await files.removeDir(artifact.path, record?.ephemeral ?? artifact.ephemeral ?? []);
    else await files.remove(artifact.path);
    return;
  }
  const owner = { ...(artifact.owner ? { owner: artifact.owner } : {}), ...(artifact.group ? { group: artifact.group } : {}) };
  if (store === "directory") await files.mkdir(artifact.path, { mode: artifact.mode ?? 0o755, ...owner });
  else if (store === "symlink") await files.symlink(artifact.path, artifact.content);
  else await files.writeFile(artifact.path, artifact.content, { mode: artifact.mode ?? 0o644, ...owner });
}

function updateRecord(recorded: RecordedArtifact[], write: ArtifactWrite): void {
  const store = write.artifact.store ?? "file";
  const index = recorded.findIndex((r) => artifactId(r) === artifactId(write.artifact));
  if (write.content === null) {
    if (index >= 0) recorded.splice(index, 1);
    return;
  }
  const entry: RecordedArtifact = {
    store,
    path: write.artifact.path,
    hash: contentHash(write.content),
    ...(write.artifact.ephemeral ? { ephemeral: write.artifact.ephemeral } : {}),
  };
  if (index >= 0) recorded[index] = entry;
  else recorded.push(entry);
}

async function checkDesired(
  session: Session,
  active: PlanEntry[],
  assigned: Map<string, ProviderDefinition>,
  state: StateFile,
  failed: Set<string>,
): Promise<TendError[]> {
  const services = active.filter((e) => e.action !== "remove" && e.resource.type === "service" && !failed.has(e.key));
  if (services.length === 0) return [];
  const observed = await session.observeAll(services.map((e) => e.resource), assigned, state);
  const problems: TendError[] = [];
  for (const entry of services) {
    if (entry.resource.type !== "service") continue;
    const refused = assigned.get(entry.key)?.refusedOperations?.(entry.resource) ?? [];
    const desired = desiredOf(entry.resource);
    const now = observed.get(entry.key);
    if (!now) continue;
    if (desired.state && now.state !== undefined && now.state !== desired.state && !refused.includes(desired.state === "running" ? "start" : "stop")) {
      problems.push(errors.verifyFailed(entry.key, `the init reports it ${now.state}, and the spec wants it ${desired.state}`));
    }
    if (now.enabled !== undefined && now.enabled !== desired.enabled) {
      problems.push(errors.verifyFailed(entry.key, `the init reports it ${now.enabled ? "enabled" : "disabled"} at boot, and the spec wants it ${desired.enabled ? "enabled" : "disabled"}`));
    }
  }
  return problems;
}

