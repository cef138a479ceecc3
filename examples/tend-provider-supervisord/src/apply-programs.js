// @ts-check
import { errors } from "@tend/core/contract";
import { programName } from "./program-names.js";
import { readStatus } from "./read-status.js";
import { deadlineFor, failureOf, lastLines, outcomesByName, supervisorctl } from "./supervisorctl.js";

/** @typedef {import("@tend/core/contract").ApplyContext} ApplyContext */
/** @typedef {import("@tend/core/contract").ResourceChange<"service">} ServiceChange */

/** How long a program supervisord loaded with autostart may take to be spawned. */
const SPAWN_WAIT_MS = 5_000;
const POLL_MS = 100;

/**
 * Carries out one wave of adds and changes with one supervisorctl call per kind of work:
 * 1. `update NAME…` for every program whose file was written or that supervisord must load.
 *    update re-reads the configuration itself (no `reread` first) and (re)loads exactly the
 *    named programs that are new or changed, stopping a changed one first; supervisord then
 *    starts a program it loads with `autostart=true` by itself.
 * 2. `stop`, `start`, `restart` and `signal SIG` (reloads), each once for the whole wave.
 * A program that update (re)loaded takes its desired state rather than the planned operations:
 * running comes by itself with autostart, and takes a `start` without it; a program that must
 * stay stopped but starts at boot (`desired: {state: stopped, enabled: true}`) is started by
 * supervisord on loading, so it is stopped again once it has been.
 */
export async function applyPrograms(/** @type {ServiceChange[]} */ changes, /** @type {ApplyContext} */ ctx) {
  /** @type {Map<string, unknown>} */
  const failures = new Map();
  if (ctx.offline) return failures;
  const keyOf = new Map(changes.map((change) => [programName(change.resource.name), change.key]));
  const fresh = await loadPrograms(changes.filter(needsLoading), ctx, failures);

  /** @type {{ stop: string[]; start: string[]; restart: string[]; startedThenStop: string[]; signals: Map<string, string[]> }} */
  const work = { stop: [], start: [], restart: [], startedThenStop: [], signals: new Map() };
  for (const change of changes) {
    if (failures.has(change.key)) continue;
    const name = programName(change.resource.name);
    if (fresh.has(name)) {
      const running = (change.resource.desired?.state ?? "running") === "running";
      const autostart = change.resource.desired?.enabled ?? true;
      if (running && !autostart) work.start.push(name);
      if (!running && autostart) work.startedThenStop.push(name);
      continue;
    }
    for (const op of change.ops) {
      if (op === "stop" || op === "start" || op === "restart") work[op].push(name);
      if (op === "reload") {
        const signal = change.resource.reloadSignal;
        if (signal === undefined) failures.set(change.key, errors.cannotReload(change.key, "supervisord"));
        else work.signals.set(signal, [...(work.signals.get(signal) ?? []), name]);
      }
    }
  }

  if (work.startedThenStop.length > 0) {
    await waitUntilStarted(work.startedThenStop, ctx);
    for (const name of work.startedThenStop) ctx.log(`${keyOf.get(name)}: supervisord starts a program it loads with autostart=true; stopped it again`);
    work.stop.push(...work.startedThenStop);
  }
  const run = async (/** @type {string[]} */ args, /** @type {string[]} */ names, /** @type {string[]} */ benign) => {
    if (names.length === 0) return;
    const result = await supervisorctl(ctx, [...args, ...names], deadlineFor(names.length));
    for (const name of names) {
      const failure = failureOf(result, name, benign);
      if (failure) failures.set(keyOf.get(name) ?? name, failure);
    }
  };
  await run(["stop"], work.stop, ["not running"]);
  await run(["start"], work.start, ["already started"]);
  await run(["restart"], work.restart, ["not running"]);
  for (const [signal, names] of work.signals) await run(["signal", signal], names, []);
  return failures;
}

/** A program supervisord may not have loaded as written: its file changed, or it is to be enabled or started. */
function needsLoading(/** @type {ServiceChange} */ change) {
  return change.filesChanged || change.ops.some((op) => op === "enable" || op === "disable" || op === "start");
}

/**
 * `supervisorctl update NAME…`; the names it (re)loaded. A name it says anything else about
 * (`ERROR: no such group`) fails, and so does every name when it failed as a whole (a
 * configuration supervisord cannot read) without a word about any of them.
 */
async function loadPrograms(/** @type {ServiceChange[]} */ changes, /** @type {ApplyContext} */ ctx, /** @type {Map<string, unknown>} */ failures) {
  /** @type {Set<string>} */
  const fresh = new Set();
  if (changes.length === 0) return fresh;
  const result = await supervisorctl(ctx, ["update", ...changes.map((change) => programName(change.resource.name))], deadlineFor(changes.length));
  const outcomes = outcomesByName(result.stdout);
  const failedAsAWhole = result.exitCode !== 0 && outcomes.size === 0;
  for (const change of changes) {
    const name = programName(change.resource.name);
    const lines = outcomes.get(name) ?? [];
    if (lines.includes("added process group") || lines.includes("updated process group")) fresh.add(name);
    else if (lines.length > 0) failures.set(change.key, errors.commandFailed(result.argv, result.exitCode, `${name}: ${lines.join("; ")}`));
    else if (failedAsAWhole) failures.set(change.key, errors.commandFailed(result.argv, result.exitCode, lastLines(result)));
  }
  return fresh;
}

/** Waits (a few seconds at most) until supervisord has spawned each program once since loading it. */
async function waitUntilStarted(/** @type {string[]} */ names, /** @type {ApplyContext} */ ctx) {
  for (let waited = 0; waited < SPAWN_WAIT_MS; waited += POLL_MS) {
    const statuses = await readStatus(ctx);
    if (names.every((name) => statuses.get(name)?.started !== false)) return;
    await ctx.sleep(POLL_MS);
  }
}
