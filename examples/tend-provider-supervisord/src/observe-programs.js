// @ts-check
import { isActive } from "./parse-status.js";
import { confPath, programName } from "./program-names.js";
import { readStatus } from "./read-status.js";
import { autostartOf } from "./render-program.js";

/** @typedef {import("@tend/core/contract").Observation} Observation */
/** @typedef {import("@tend/core/contract").ReadContext} ReadContext */
/** @typedef {import("@tend/core/contract").Service} Service */

/**
 * Observes every service with one `supervisorctl status`, plus a read of each program file.
 * exists: supervisord has the program loaded; state: running while it is STARTING, RUNNING or
 * BACKOFF; enabled: the file says `autostart=true` (what supervisord reads when it starts). Under
 * `--root` nothing runs: a program exists when its file does, and its state is unobservable.
 */
export async function observePrograms(/** @type {Service[]} */ services, /** @type {ReadContext} */ ctx) {
  const statuses = ctx.root === undefined ? await readStatus(ctx) : undefined;
  /** @type {Map<string, Observation>} */
  const observations = new Map();
  for (const service of services) {
    const file = await ctx.files.readFile(confPath(service.name));
    const status = statuses?.get(programName(service.name));
    observations.set(`service:${service.name}`, {
      exists: statuses === undefined ? file !== null : status !== undefined,
      ...(statuses === undefined ? {} : { state: isActive(status) ? "running" : "stopped" }),
      enabled: file !== null && autostartOf(file),
      ...(status === undefined ? {} : { details: { supervisord: status.state, ...(status.pid === undefined ? {} : { pid: status.pid }), ...(status.description ? { description: status.description } : {}) } }),
    });
  }
  return observations;
}
