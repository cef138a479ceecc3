import { defineProvider } from "@tend/core/contract";
import { applyBatch, applyChange } from "./apply-batch.js";
import { checkHost } from "./check-host.js";
import { checkService } from "./check-service.js";
import { observeServices } from "./observe-services.js";
import { probeServices } from "./probe-services.js";
import { removeBatch, removeService } from "./remove-batch.js";
import { renderService } from "./render-service.js";
import { serviceLogs } from "./service-logs.js";
import { descriptionDir } from "./service-paths.js";
import { serviceWarnings } from "./service-warnings.js";

/**
 * tend's dinit provider: services as `/etc/dinit.d/tend-<name>` (user services in
 * `~/.config/dinit.d`), driven with `dinitctl`. Timers on dinit hosts are cron's.
 */
export default defineProvider({
  apiVersion: 1,
  name: "dinit",
  serves: { inits: ["dinit"], types: ["service"] },
  capabilities: {
    service: { userServices: true, distroUnits: true, after: "services", displayManager: false, reloadSignal: true, dependentsRestart: "always" },
  },
  check: (resource) => checkService(resource),
  warnings: serviceWarnings,
  render: (resource, ctx) => (resource.type === "service" ? renderService(resource, ctx) : []),
  observe: observeServices,
  checkHost,
  apply: applyChange,
  applyBatch,
  remove: removeService,
  removeBatch,
  managedFolders: (ctx) => [{ dir: descriptionDir(ctx.scope), prefix: "tend-" }],
  probe: probeServices,
  logs: serviceLogs,
});
