import { defineProvider } from "@tend/core/contract";
import { applyBatch, applyService } from "./apply-batch.js";
import { checkS6Host } from "./check-host.js";
import { checkService } from "./check-service.js";
import { compileAndSwitch } from "./compile-and-switch.js";
import { observeServices } from "./observe-services.js";
import { probeServices } from "./probe-services.js";
import { removeBatch, removeService } from "./remove-batch.js";
import { renderLongrun } from "./render-longrun.js";
import { serviceLogs } from "./service-logs.js";

/**
 * tend's provider for s6 with s6-rc: each service is a longrun source definition in
 * `/etc/s6/sv/tend-<name>/`, listed in the bundle `/etc/s6/sv/tend`, compiled into
 * `/etc/s6/db/tend-g<generation>-a` and switched to with s6-rc-update.
 */
const provider = defineProvider({
  apiVersion: 1,
  name: "s6",
  serves: { inits: ["s6"], types: ["service"] },
  capabilities: {
    service: { userServices: false, distroUnits: false, after: "services", displayManager: false, reloadSignal: true, dependentsRestart: "definition" },
  },
  check: (resource) => checkService(resource),
  render: (resource) => (resource.type === "service" ? renderLongrun(resource) : []),
  observe: observeServices,
  checkHost: (_resources, _observations, ctx) => checkS6Host(ctx),
  apply: applyService,
  applyBatch,
  remove: removeService,
  removeBatch,
  afterWrites: compileAndSwitch,
  probe: probeServices,
  // s6-rc waits for readiness itself; a restart through s6-svc may wait for a notifying program.
  startTimeoutMs: 10_000,
  logs: serviceLogs,
});

export default provider;
