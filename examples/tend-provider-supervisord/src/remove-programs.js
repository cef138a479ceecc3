// @ts-check
import { errors, TendErrors } from "@tend/core/contract";
import { programName } from "./program-names.js";
import { deadlineFor, failureOf, lastLines, outcomesByName, supervisorctl } from "./supervisorctl.js";

/** @typedef {import("@tend/core/contract").ApplyContext} ApplyContext */
/** @typedef {import("@tend/core/contract").ResourceChange<"service">} ServiceChange */

/**
 * A wave of removals, before the core deletes their files: one `supervisorctl stop NAME…`, which
 * ends each program's whole process group (stopasgroup) and waits for it. A program that is not
 * running, or that supervisord does not have, is already as a removal wants it.
 */
export async function stopPrograms(/** @type {ServiceChange[]} */ changes, /** @type {ApplyContext} */ ctx) {
  /** @type {Map<string, unknown>} */
  const failures = new Map();
  if (ctx.offline || changes.length === 0) return failures;
  const result = await supervisorctl(ctx, ["stop", ...changes.map((change) => programName(change.resource.name))], deadlineFor(changes.length));
  for (const change of changes) {
    const failure = failureOf(result, programName(change.resource.name), ["not running", "no such process"]);
    if (failure) failures.set(change.key, failure);
  }
  return failures;
}

/**
 * After the core deleted the files of removed services: one `supervisorctl update NAME…`, which
 * unloads them (`removed process group`). A name supervisord never loaded is fine.
 */
export async function unloadRemoved(/** @type {ServiceChange[]} */ changes, /** @type {string[]} */ _paths, /** @type {ApplyContext} */ ctx) {
  const names = changes.filter((change) => change.action === "remove").map((change) => programName(change.resource.name));
  if (ctx.offline || names.length === 0) return;
  const result = await supervisorctl(ctx, ["update", ...names], deadlineFor(names.length));
  const outcomes = outcomesByName(result.stdout);
  const problems = names.flatMap((name) => {
    const lines = outcomes.get(name) ?? [];
    if (lines.includes("removed process group") || lines.includes("ERROR (no such group)")) return [];
    return [errors.commandFailed(result.argv, result.exitCode, lines.length > 0 ? `${name}: ${lines.join("; ")}` : lastLines(result), { resource: `service:${name.slice("tend-".length)}` })];
  });
  if (problems.length === 1) throw problems[0];
  if (problems.length > 1) throw new TendErrors(problems);
}
