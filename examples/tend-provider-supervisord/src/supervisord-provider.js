// @ts-check
import { defineProvider } from "@tend/core/contract";
import { applyPrograms } from "./apply-programs.js";
import { checkHost } from "./check-host.js";
import { checkService } from "./check-service.js";
import { observePrograms } from "./observe-programs.js";
import { probePrograms } from "./probe-programs.js";
import { CONF_DIR } from "./program-names.js";
import { readLogs } from "./read-logs.js";
import { stopPrograms, unloadRemoved } from "./remove-programs.js";
import { renderProgram } from "./render-program.js";

/** @typedef {import("@tend/core/contract").ResourceChange<"service">} ServiceChange */
/** @typedef {import("@tend/core/contract").ApplyContext} ApplyContext */

/**
 * Services as supervisord programs: one `[program:tend-<name>]` file each in
 * /etc/supervisor/conf.d, loaded with `supervisorctl update`, observed and verified with one
 * `supervisorctl status`. supervisord has no user instances, no units of its own to enable and no
 * ordering between programs (`after` is accepted and orders only tend's apply).
 */
export const supervisordProvider = defineProvider({
  apiVersion: 1,
  name: "supervisord",
  serves: { inits: ["supervisord"], types: ["service"] },
  capabilities: {
    service: { userServices: false, distroUnits: false, after: "ignored", displayManager: false, reloadSignal: true },
  },
  check: (service) => checkService(service),
  render: (service) => renderProgram(service),
  observe: observePrograms,
  checkHost,
  applyBatch: applyPrograms,
  apply: (change, ctx) => one(applyPrograms, change, ctx),
  removeBatch: stopPrograms,
  remove: (change, ctx) => one(stopPrograms, change, ctx),
  afterWrites: unloadRemoved,
  managedFolders: () => [{ dir: CONF_DIR, prefix: "tend-" }],
  probe: probePrograms,
  logs: readLogs,
});

/** A single change through its batch: throws its failure. */
async function one(
  /** @type {(changes: ServiceChange[], ctx: ApplyContext) => Promise<Map<string, unknown>>} */ batch,
  /** @type {ServiceChange} */ change,
  /** @type {ApplyContext} */ ctx,
) {
  const failure = (await batch([change], ctx)).get(change.key);
  if (failure !== undefined) throw failure;
}
