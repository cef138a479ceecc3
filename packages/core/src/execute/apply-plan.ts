import { join } from "node:path";
import type { Operation, ResourceChange } from "../contract/change.js";
import type { ProviderDefinition } from "../contract/provider.js";
import { errors, moreErrors } from "../errors/catalogue.js";
import { TendErrors, type TendError } from "../errors/tend-error.js";
import { dependenciesOf } from "../model/dependencies-of.js";
import { changesContent, definitionChanged, type ArtifactWrite, type Plan, type PlanEntry } from "../plan/plan-types.js";
import { providerContext } from "../session/provider-context.js";
import { asTendError, type Session } from "../session/session.js";
import type { StateFile } from "../state/state-file.js";
import { applyWaves } from "./apply-waves.js";
import { installStages } from "./install-stages.js";
import { takeOverPackageCopies } from "./package-copies.js";
import { ownerProblem } from "../files/owner-problem.js";
import { confirmedArtifacts, intendedArtifacts } from "./artifact-records.js";
import { checkDesired } from "./check-desired.js";
import { deletesFolder, describeWrite, roomNeeds, writeArtifacts } from "./write-artifacts.js";
import { verifyServices, type VerifyTarget } from "./verify-services.js";

/**
 * In a user's run, a File found where tend did not write it may be the system run's: root's
 * `tend apply` of the same spec writes every File, homes included, except those a user service
 * or timer names (see userScopeFiles).
 */
const SYSTEM_RUN_WROTE_IT =
  "If root's tend apply of this spec wrote it (a system run writes every File but those a user service or timer names), name it in a user service's requires to make it this run's alone; then move the file away, or run apply with --adopt once (a backup is kept)";

/** Thrown when an apply is told to stop (SIGINT, SIGTERM, SIGHUP): the current step finished and the state is saved. */
export class ApplyAborted extends Error {
  constructor(readonly step: string) {
    super(`apply stopped by a signal after ${step}; run apply again to finish`);
    this.name = "ApplyAborted";
  }
}

export interface ApplyReport {
  ok: boolean;
  /** What was done, one line per step (`service:web: restarted`). */
  lines: string[];
  failures: TendError[];
}

export interface ApplyOptions {
  adopt?: boolean;
  /** Aborted by a signal: the apply stops after the step it is in, with the state saved. */
  signal?: AbortSignal;
  /** Told as the apply goes: resources finished out of all, and the step it is in. */
  progress?: (event: { done: number; total: number; step: string }) => void;
}

const PAST: Record<string, string> = { enable: "enabled", disable: "disabled", start: "started", stop: "stopped", restart: "restarted", reload: "reloaded" };

/**
 * Carries out a plan: the intent of every change journalled first, then removals, every write,
 * each provider's `afterWrites`, the operations in waves of independent resources (one batch per
 * provider and wave), verification of every started service at once, and a final save. After
 * each step the journal is synced, so an apply killed anywhere loses nothing it wrote and a rerun
 * converges. A failure stops the resources that depend on it, never the independent ones.
 */
export async function applyPlan(
  session: Session,
  plan: Plan,
  state: StateFile,
  assigned: Map<string, ProviderDefinition>,
  options: ApplyOptions = {},
): Promise<ApplyReport> {
  const store = session.stateStore;
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
  /** A folder this apply deleted that is still there: it held something not tend's, so it was kept. */
  const stayed = (write: ArtifactWrite): Promise<boolean> => (deletesFolder(write) ? session.files.exists(write.artifact.path).catch(() => false) : Promise.resolve(false));
  let entries: Map<string, PlanEntry> | undefined;
  const entryOf = (key: string) => (entries ??= new Map(plan.entries.map((e) => [e.key, e]))).get(key);
  const fail = (entry: PlanEntry, error: unknown) => {
    failed.add(entry.key);
    failures.push(asTendError(error, entry.key, providerOf(entry)?.name));
  };
  /** A resource whose dependency failed is not applied: it fails too, naming the dependency. */
  const blocked = (entry: PlanEntry): boolean => {
    if (failed.has(entry.key)) return true;
    const blocker = dependenciesOf(entry.resource).find((dep) => failed.has(dep));
    if (blocker) fail(entry, errors.spec(`${entry.key} was not applied because ${blocker} failed`));
    return blocker !== undefined;
  };

  const unclaimed = plan.entries.flatMap((e) => [
    ...e.conflicts.map((path) => errors.conflict(e.key, path, e.resource.type === "file" && session.host.scope.kind === "user" ? { hint: SYSTEM_RUN_WROTE_IT } : undefined)),
    ...e.orphans.map((path) => moreErrors.orphan(e.key, path)),
    ...e.editedDeletions.map((path) => errors.editedDeletion(e.key, path)),
  ]);
  if (unclaimed.length > 0 && !options.adopt) throw unclaimed.length === 1 ? unclaimed[0]! : new TendErrors(unclaimed);

  // Ledger entries the init already reports done (an apply killed after the step, before the
  // record of it): nothing is planned for them, and they are cleared.
  let cleared = false;
  for (const entry of plan.entries) {
    const record = state.resources[entry.key];
    if (entry.action !== "none" || !record?.pending) continue;
    settle(entry.key, record.resource, []);
    cleared = true;
  }
  const active = plan.entries.filter((e) => e.action !== "none");
  if (active.length === 0) {
    if (store.unsaved || cleared) await store.save(state);
    return { ok: true, lines, failures };
  }
  const finished = new Set<string>();
  const tell = (step: string) => options.progress?.({ done: finished.size, total: active.length, step });
  const checkpoint = async (step: string) => {
    await store.flush(state);
    // File work is synchronous: let a signal that arrived meanwhile be handled before looking.
    await new Promise((resolve) => setImmediate(resolve));
    if (options.signal?.aborted) {
      await store.save(state);
      throw new ApplyAborted(step);
    }
  };
  const backupDir = join(store.dir, "backups", new Date().toISOString().replace(/[:.]/g, "-"));

  // Room on every file system for all that this apply stages, before anything changes: a full
  // disk met halfway would leave services stopped by the removals and their files unwritten.
  const short = await session.files.shortfall?.([...roomNeeds(active, state, backupDir), { path: store.path, bytes: stateRoom(state, active.length) }]);
  if (short) throw moreErrors.noRoom(short);

  // 0. What the plan already knows apply must refuse fails its resource before anything is written.
  for (const entry of active) {
    const refusal = entry.refusals[0];
    if (refusal) fail(entry, errors.unsafePath(refusal.path, `it is ${refusal.what}; tend never writes through or over it`));
  }

  // 1. Journal what this apply sets out to do, before touching anything; clear what a killed one left.
  const leftovers = unconfirmedPaths(state);
  for (const entry of active) {
    if (entry.action === "remove" || failed.has(entry.key)) continue;
    const record = state.resources[entry.key];
    store.set(state, entry.key, {
      resource: record?.resource ?? entry.resource,
      provider: entry.provider,
      artifacts: intendedArtifacts(record?.artifacts ?? [], entry.writes),
      ...(record?.version !== undefined ? { version: record.version } : {}),
      ...(entry.ops.length > 0 ? { pending: entry.ops } : {}),
      ...(entry.ops.length > 0 && entry.causes ? { pendingWhy: entry.causes } : {}),
    });
  }
  await checkpoint("recording the plan");
  await session.files.perform(leftovers.map((path) => ({ op: "clean-temps" as const, path })));

  // 2. Removals, dependents first, a wave at a time.
  const written: string[] = [];
  const removals = active.filter((e) => e.action === "remove");
  for (const wave of applyWaves([...removals].reverse()).reverse()) {
    tell("removing");
    const stopped = await runProviders(wave, "remove");
    const deleting = wave.filter((e) => stopped.has(e.key));
    const results = await writeArtifacts(session, deleting, state, assigned, backupDir);
    for (const entry of deleting) {
      const error = results.get(entry.key);
      if (error) {
        fail(entry, error);
        continue;
      }
      store.drop(state, entry.key);
      written.push(...entry.writes.map((w) => w.artifact.path));
      finished.add(entry.key);
      // Only an edited file's deletion is told (where its copy went), and a folder kept.
      for (const write of entry.writes) {
        const kept = await stayed(write);
        if (write.why === "edited" || kept) log(`${entry.key}: ${describeWrite(write, kept)}`);
      }
      log(`${entry.key}: removed`);
    }
    await checkpoint(`removing ${wave.map((e) => e.key).join(", ")}`);
  }

  // 3–5 a stage at a time: a File whose owner or group the host lacks (plan let it through, as a
  // package this apply installs makes them) and what comes after it wait for the first stage's
  // packages. Without such a File, all of it is one stage.
  const operating = active.filter((e) => e.action !== "remove");
  const verifyTargets: VerifyTarget[] = [];
  const verified = new Set<string>();
  for (const [stageIndex, stage] of installStages(operating, (e) => ownerProblem(session.files, e.resource) !== undefined).entries()) {
    // 3. Every write of the stage, in dependency order, as one batch.
    tell("writing files");
    const writtenBefore = stageIndex === 0 ? 0 : written.length;
    const writing = stage.filter((e) => e.writes.length > 0 && !blocked(e));
    if (stageIndex > 0) await takeOverPackageCopies(session.files, writing, new Set(operating.filter((e) => e.resource.type === "package" && finished.has(e.key)).map((e) => e.key)));
    const results = await writeArtifacts(session, writing, state, assigned, backupDir, new Set(written));
    for (const entry of writing) {
      const error = results.get(entry.key);
      if (error) {
        fail(entry, error);
        continue;
      }
      const record = state.resources[entry.key]!;
      store.set(state, entry.key, { ...record, resource: entry.resource, artifacts: confirmedArtifacts(record.artifacts, entry.writes) });
      written.push(...entry.writes.filter(changesContent).map((w) => w.artifact.path));
      for (const write of entry.writes) {
        if (write.why !== "unrecorded") log(`${entry.key}: ${describeWrite(write, await stayed(write))}`);
      }
    }
    await checkpoint("writing files");

    // 4. Once per provider and stage: daemon-reload, compile, switch.
    tell("telling the init about the files");
    const inStage = new Set(stage);
    const told = stageIndex === 0 ? active.filter((e) => e.action === "remove" || inStage.has(e)) : stage;
    const stageWritten = written.slice(writtenBefore);
    for (const provider of new Set(assigned.values())) {
      if (!provider.afterWrites) continue;
      const mine = told.filter((e) => assigned.get(e.key) === provider && !failed.has(e.key));
      if (mine.length === 0 && stageWritten.length === 0) continue;
      try {
        await provider.afterWrites(mine.map(toChange), stageWritten, ctxFor(provider));
      } catch (error) {
        for (const entry of mine) fail(entry, error);
      }
    }
    store.noteProviders(state);
    await checkpoint("telling the init about the files");

    // 5. Operations, a wave of independent resources at a time.
    const waves = applyWaves(stage);
    for (const [index, wave] of waves.entries()) {
      tell(waves.length === 1 ? "carrying out the changes" : `carrying out wave ${index + 1} of ${waves.length}`);
      const ready = wave.filter((e) => !blocked(e));
      await recheckMissingUnits(ready);
      const done = await runProviders(ready.filter((e) => !failed.has(e.key)), "apply");
      for (const entry of ready) {
        if (!done.has(entry.key)) continue;
        const provider = providerOf(entry);
        const verifying = provider !== undefined && entry.resource.type === "service" && !session.offline && (entry.ops.includes("start") || entry.ops.includes("restart"));
        // A start or restart stays in the ledger until verification sees the service up.
        settle(entry.key, entry.resource, verifying ? ["start", "restart"] : []);
        if (verifying && !verified.has(entry.key)) {
          verified.add(entry.key);
          verifyTargets.push({ key: entry.key, resource: entry.resource, provider, ctx: ctxFor(provider) });
        }
        finished.add(entry.key);
        const did = entry.ops.map((op) => PAST[op]!).join(", ");
        const caughtUp = entry.action === "change" && entry.ops.length === 0 && entry.writes.length > 0 && entry.writes.every((w) => w.why === "unrecorded");
        if (caughtUp) log(`${entry.key}: recorded the files an earlier apply wrote before it stopped`);
        else log(`${entry.key}: ${entry.action === "add" ? "added" : "changed"}${did ? `, ${did}` : ""}${entry.reasons.length > 0 ? ` (${entry.reasons.join("; ")})` : ""}`);
        // The init restarted these with it (they come after it): verified with it.
        if (verifying) {
          for (const key of entry.alsoRestarts ?? []) {
            const dependent = entryOf(key);
            if (!dependent || verified.has(key)) continue;
            log(`${key}: restarted with ${entry.key}, which it comes after`);
            verified.add(key);
            verifyTargets.push({ key, resource: dependent.resource, provider, ctx: ctxFor(provider) });
          }
        }
      }
      if (!session.offline) await recordVersions(ready.filter((e) => done.has(e.key)));
      store.noteProviders(state);
      await checkpoint(waves.length === 1 ? "carrying out the changes" : `carrying out wave ${index + 1} of ${waves.length}`);
    }
  }

  // 6. Verification: up, and still up with the same identity after one settle window for all.
  if (!session.offline && verifyTargets.length > 0) {
    tell(`verifying ${verifyTargets.length} started service${verifyTargets.length === 1 ? "" : "s"}`);
    const problems = await verifyServices(verifyTargets, (ms) => new Promise((r) => setTimeout(r, ms)));
    for (const problem of problems) {
      failed.add(problem.location.resource ?? "");
      failures.push(problem);
    }
    for (const target of verifyTargets) {
      if (failed.has(target.key)) continue;
      settle(target.key, target.resource, []);
      log(`${target.key}: verified`);
    }
  }
  // 7. The state the spec asked for is the state the init reports.
  if (!session.offline) failures.push(...(await checkDesired(session, active, assigned, state, failed)));
  await store.save(state);
  return { ok: failures.length === 0, lines, failures };

  /** Takes the operations carried out off a resource's ledger, keeping those in `unfinished`. */
  function settle(key: string, resource: PlanEntry["resource"], unfinished: Operation[]): void {
    const record = state.resources[key];
    if (!record) return;
    const { pending, pendingWhy, ...rest } = record;
    const left = (pending ?? []).filter((op) => unfinished.includes(op));
    const why = Object.fromEntries(Object.entries(pendingWhy ?? {}).filter(([op]) => left.includes(op as Operation)));
    store.set(state, key, { ...rest, resource, ...(left.length > 0 ? { pending: left } : {}), ...(Object.keys(why).length > 0 ? { pendingWhy: why } : {}) });
  }

  /** Runs each provider's part of a wave (batched when the provider can); the keys that succeeded. */
  async function runProviders(wave: PlanEntry[], kind: "apply" | "remove"): Promise<Set<string>> {
    const succeeded = new Set<string>();
    const byProvider = new Map<ProviderDefinition | undefined, PlanEntry[]>();
    for (const entry of wave) {
      const provider = providerOf(entry);
      const list = byProvider.get(provider);
      if (list) list.push(entry);
      else byProvider.set(provider, [entry]);
    }
    for (const [provider, entries] of byProvider) {
      if (!provider) {
        for (const entry of entries) succeeded.add(entry.key);
        continue;
      }
      const ctx = ctxFor(provider);
      const batch = kind === "apply" ? provider.applyBatch : provider.removeBatch;
      if (batch) {
        let outcome: Map<string, unknown>;
        try {
          outcome = await batch.call(provider, entries.map(toChange), ctx);
        } catch (error) {
          outcome = new Map(entries.map((e) => [e.key, error]));
        }
        for (const entry of entries) {
          const error = outcome.get(entry.key);
          if (error === undefined) succeeded.add(entry.key);
          else fail(entry, error);
        }
        continue;
      }
      for (const entry of entries) {
        try {
          await (kind === "apply" ? provider.apply(toChange(entry), ctx) : provider.remove(toChange(entry), ctx));
          succeeded.add(entry.key);
        } catch (error) {
          fail(entry, error);
        }
      }
    }
    return succeeded;
  }

  /**
   * Records the version each applied package now has (one `observe` per provider), so a later
   * plan can tell an upgrade made outside tend and restart what lists it in `restartOn`.
   */
  async function recordVersions(entries: PlanEntry[]): Promise<void> {
    const versioned = entries.filter((e) => e.resource.type === "package" && providerOf(e));
    const byProvider = new Map<ProviderDefinition, PlanEntry[]>();
    for (const entry of versioned) byProvider.set(providerOf(entry)!, [...(byProvider.get(providerOf(entry)!) ?? []), entry]);
    for (const [provider, list] of byProvider) {
      let now: Map<string, { version?: string }>;
      try {
        now = await provider.observe(list.map((e) => e.resource), ctxFor(provider));
      } catch (error) {
        for (const entry of list) fail(entry, error);
        continue;
      }
      for (const entry of list) {
        const record = state.resources[entry.key];
        if (!record) continue;
        const { version: _old, ...rest } = record;
        const version = now.get(entry.key)?.version;
        store.set(state, entry.key, { ...rest, ...(version !== undefined ? { version } : {}) });
      }
    }
  }

  /** A distro unit missing when planned may have come with a file written since: ask once more, per provider. */
  async function recheckMissingUnits(entries: PlanEntry[]): Promise<void> {
    const missing = entries.filter((e) => e.resource.type === "service" && e.resource.exec === undefined && e.observation?.exists === false && providerOf(e));
    const byProvider = new Map<ProviderDefinition, PlanEntry[]>();
    for (const entry of missing) byProvider.set(providerOf(entry)!, [...(byProvider.get(providerOf(entry)!) ?? []), entry]);
    for (const [provider, list] of byProvider) {
      let now: Map<string, { exists: boolean }>;
      try {
        now = await provider.observe(list.map((e) => e.resource), ctxFor(provider));
      } catch (error) {
        for (const entry of list) fail(entry, error);
        continue;
      }
      for (const entry of list) if (now.get(entry.key)?.exists !== true) fail(entry, errors.unitMissing(entry.key, entry.resource.name));
    }
  }
}

/**
 * Paths whose temp files a killed apply may have left: every write journalled and never
 * confirmed (an apply journals a write before it starts it, so no other path can have one).
 */
function unconfirmedPaths(state: StateFile): string[] {
  const paths = new Set<string>();
  for (const record of Object.values(state.resources)) {
    for (const a of record.artifacts) if (a.writing !== undefined && (a.store === "file" || a.store === "symlink")) paths.add(a.path);
  }
  return [...paths];
}

function toChange(entry: PlanEntry): ResourceChange {
  return {
    key: entry.key,
    action: entry.action === "none" ? "change" : entry.action,
    resource: entry.resource,
    ...(entry.previous ? { previous: entry.previous } : {}),
    ops: entry.ops,
    filesChanged: definitionChanged(entry),
    reasons: entry.reasons,
  };
}

/**
 * About what saving the state takes while the old copy is still there, with the journal: a
 * record is some 300 bytes and 200 for each of its files, and the journal holds a line per
 * changed resource.
 */
function stateRoom(state: StateFile, changing: number): number {
  let bytes = 4096 + 512 * changing;
  for (const record of Object.values(state.resources)) bytes += 300 + 200 * record.artifacts.length;
  return bytes + 300 * changing;
}
