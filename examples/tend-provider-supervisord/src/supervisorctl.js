// @ts-check
import { TendError, errors } from "@tend/core/contract";
import { SUPERVISORD_CONF } from "./program-names.js";

/** @typedef {import("@tend/core/contract").ReadContext} ReadContext */

/**
 * Runs `supervisorctl -c /etc/supervisor/supervisord.conf ARGS` (the explicit configuration, as
 * supervisorctl would otherwise prefer a `supervisord.conf` in the working folder). It never
 * throws for its exit code: supervisorctl exits non-zero when any one name fails, and callers
 * read the outcome name by name.
 */
export async function supervisorctl(/** @type {ReadContext} */ ctx, /** @type {string[]} */ args, timeoutMs = 60_000) {
  const argv = ["supervisorctl", "-c", SUPERVISORD_CONF, ...args];
  const result = await ctx.run.run({ argv, okCodes: "any", timeoutMs });
  return { argv, ...result };
}

/**
 * A deadline for a call that acts on `count` programs one after another: supervisorctl waits for
 * each to start (`startsecs`) or to stop (up to `stopwaitsecs`, 10 s, before a kill).
 */
export function deadlineFor(/** @type {number} */ count) {
  return 30_000 + count * 15_000;
}

/**
 * supervisorctl's `NAME: message` lines (start, stop, restart, signal, update), by name, in order.
 * `ERROR: no such group: NAME` (update) is filed under NAME as `ERROR (no such group)`.
 */
export function outcomesByName(/** @type {string} */ output) {
  /** @type {Map<string, string[]>} */
  const outcomes = new Map();
  for (const line of output.split("\n")) {
    const noGroup = /^ERROR: no such group: (\S+)$/.exec(line);
    const named = /^(\S+): (.+)$/.exec(line);
    const [name, message] = noGroup ? [noGroup[1], "ERROR (no such group)"] : named ? [named[1], named[2]] : [];
    if (name === undefined || message === undefined || name === "ERROR" || name === "error") continue;
    outcomes.set(name, [...(outcomes.get(name) ?? []), message]);
  }
  return outcomes;
}

/**
 * A failure for one name: an `ERROR (…)` line other than the ones `benign` lists (`already
 * started` for start, `not running` for stop), or no line at all for it. Undefined when it went well.
 */
export function failureOf(
  /** @type {{ argv: string[]; exitCode: number; stdout: string; stderr: string }} */ result,
  /** @type {string} */ name,
  /** @type {string[]} */ benign = [],
) {
  const lines = outcomesByName(result.stdout).get(name);
  const bad = (lines ?? []).find((line) => line.startsWith("ERROR") && !benign.some((ok) => line === `ERROR (${ok})`));
  if (lines !== undefined && bad === undefined) return undefined;
  const detail = bad === undefined ? `it printed nothing for ${name}: ${lastLines(result)}` : `${name}: ${bad}`;
  return errors.commandFailed(result.argv, result.exitCode, detail);
}

/** supervisord could not be asked at all (not running, or its socket elsewhere). */
export function unreachable(/** @type {{ argv: string[]; exitCode: number; stdout: string; stderr: string }} */ result) {
  return new TendError("TEND_SUPERVISORD_UNREACHABLE", `\`${result.argv.join(" ")}\` could not reach supervisord (exit ${result.exitCode}): ${lastLines(result)}`, {
    hint: `Check that supervisord runs and that ${SUPERVISORD_CONF}'s [supervisorctl] serverurl names its socket.`,
  });
}

/** The last lines a command printed, for messages. */
export function lastLines(/** @type {{ stdout: string; stderr: string }} */ result, count = 5) {
  return `${result.stdout}${result.stderr}`.trim().split("\n").slice(-count).join("\n") || "(no output)";
}
