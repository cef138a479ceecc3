import { defineProvider } from "@tend/core/contract";
import { applyBatch } from "./apply-batch.js";
import { applyChange } from "./apply-change.js";
import { checkResource } from "./check-resource.js";
import { hatchWarnings } from "./hatch-warnings.js";
import { observeUnits } from "./observe-units.js";
import { asNoUserManager } from "./no-user-manager.js";
import { probeUnits } from "./probe-units.js";
import { refusedOperations } from "./refused-operations.js";
import { reloadManagers } from "./reload-managers.js";
import { removeBatch } from "./remove-batch.js";
import { removeChange } from "./remove-change.js";
import { renderArtifacts } from "./render-artifacts.js";
import { unitLogs } from "./unit-logs.js";

/** tend on systemd: services (system and user, tend's own and the distro's) and timers. */
export const systemdProvider = defineProvider({
  apiVersion: 1,
  name: "systemd",
  serves: { inits: ["systemd"], types: ["service", "timer"] },
  capabilities: {
    service: {
      userServices: true,
      distroUnits: true,
      after: "targets",
      escapeHatch: "systemd",
      displayManager: true,
      reloadSignal: true,
    },
    timer: { userTimers: true, skippedTimes: "skip" },
  },
  check: checkResource,
  warnings: hatchWarnings,
  render: renderArtifacts,
  observe: (resources, ctx) =>
    observeUnits(resources, ctx).catch((error: unknown) => {
      throw asNoUserManager(error, ctx.scope);
    }),
  refusedOperations,
  afterWrites: reloadManagers,
  apply: applyChange,
  applyBatch,
  remove: removeChange,
  removeBatch,
  probe: probeUnits,
  logs: unitLogs,
});
