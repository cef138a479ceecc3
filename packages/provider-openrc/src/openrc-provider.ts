import { defineProvider } from "@tend/core/contract";
import { applyBatch, applyChange } from "./apply-batch.js";
import { checkHost } from "./check-host.js";
import { checkService } from "./check-service.js";
import { observeServices } from "./observe-services.js";
import { probeServices } from "./probe-services.js";
import { readServiceLogs } from "./read-service-logs.js";
import { removeBatch, removeService } from "./remove-batch.js";
import { renderService } from "./render-service.js";
import { serviceWarnings } from "./service-warnings.js";
import { updateDependencyCache } from "./update-dependency-cache.js";

/** Services on OpenRC: openrc-run scripts in /etc/init.d, runlevel links and `rc-service`. */
export const openrcProvider = defineProvider({
  apiVersion: 1,
  name: "openrc",
  serves: { inits: ["openrc"], types: ["service"] },
  capabilities: {
    service: { userServices: false, distroUnits: true, after: "services", displayManager: false, reloadSignal: true },
  },
  check: checkService,
  warnings: serviceWarnings,
  render: renderService,
  observe: observeServices,
  checkHost,
  apply: applyChange,
  applyBatch,
  remove: removeService,
  removeBatch,
  afterWrites: updateDependencyCache,
  managedFolders: () => [{ dir: "/etc/init.d", prefix: "tend-" }],
  probe: probeServices,
  logs: readServiceLogs,
});
