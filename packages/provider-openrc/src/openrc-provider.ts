import { defineProvider } from "@tend/core";
import { applyChange } from "./apply-change.js";
import { checkHost } from "./check-host.js";
import { checkService } from "./check-service.js";
import { observeServices } from "./observe-services.js";
import { probeServices } from "./probe-services.js";
import { readServiceLogs } from "./read-service-logs.js";
import { removeService } from "./remove-service.js";
import { renderService } from "./render-service.js";
import { updateDependencyCache } from "./update-dependency-cache.js";

/** Services on OpenRC: openrc-run scripts in /etc/init.d, `rc-update` and `rc-service`. */
export const openrcProvider = defineProvider({
  apiVersion: 1,
  name: "openrc",
  serves: { inits: ["openrc"], types: ["service"] },
  capabilities: {
    service: { userServices: false, distroUnits: true, after: "services", displayManager: false, reloadSignal: true },
  },
  check: checkService,
  render: renderService,
  observe: observeServices,
  checkHost,
  apply: applyChange,
  remove: removeService,
  afterWrites: updateDependencyCache,
  probe: probeServices,
  logs: readServiceLogs,
});
