import { defineProvider } from "@tend/core/contract";
import { afterWrites } from "./after-writes.js";
import { applyBatch, applyChange } from "./apply-batch.js";
import { checkHost } from "./check-host.js";
import { checkService } from "./check-service.js";
import { observeServices } from "./observe-services.js";
import { probeServices } from "./probe-services.js";
import { readLogs } from "./read-logs.js";
import { removeBatch, removeService } from "./remove-batch.js";
import { renderService } from "./render-service.js";

/** tend's runit provider: service directories in /etc/sv (or ~/.local/service), runsvdir links, sv. */
export const runitProvider = defineProvider({
  apiVersion: 1,
  name: "runit",
  serves: { inits: ["runit"], types: ["service"] },
  capabilities: {
    service: { userServices: true, distroUnits: true, after: "services", displayManager: false, reloadSignal: true },
  },
  check: (resource) => checkService(resource),
  render: (resource, ctx) => (resource.type === "service" ? renderService(resource, ctx) : []),
  observe: observeServices,
  checkHost,
  apply: applyChange,
  applyBatch,
  remove: removeService,
  removeBatch,
  afterWrites,
  probe: probeServices,
  // A started service is up within a second or two; one waiting for a service it runs after can
  // sit in `sv check` (7 s) before its next try.
  startTimeoutMs: 10_000,
  logs: readLogs,
});
