// @ts-check
import { programName } from "./program-names.js";
import { readStatus } from "./read-status.js";

/** @typedef {import("@tend/core/contract").Probe} Probe */
/** @typedef {import("@tend/core/contract").ReadContext} ReadContext */
/** @typedef {import("@tend/core/contract").Service} Service */

/**
 * Health for verification from one `supervisorctl status`: up once supervisord says RUNNING (it
 * does after the program stayed up `startsecs`, 1 s), and the pid as identity, so a program that
 * died and was restarted in the settle window shows as a new one.
 */
export async function probePrograms(/** @type {Service[]} */ services, /** @type {ReadContext} */ ctx) {
  const statuses = await readStatus(ctx);
  /** @type {Map<string, Probe>} */
  const probes = new Map();
  for (const service of services) {
    const name = programName(service.name);
    const status = statuses.get(name);
    probes.set(`service:${service.name}`, {
      up: status?.state === "RUNNING",
      ...(status?.pid === undefined ? {} : { identity: String(status.pid) }),
      detail: status?.line ?? `supervisord has no program ${name}`,
    });
  }
  return probes;
}
