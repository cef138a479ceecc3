import { defineProvider } from "@tend/core/contract";
import { applyBatch, applyChange } from "./apply-batch.js";
import { checkJob } from "./check-job.js";
import { hatchWarnings } from "./hatch-warnings.js";
import { jobLogs } from "./job-logs.js";
import { managedFolders } from "./managed-folders.js";
import { observeJobs } from "./observe-jobs.js";
import { probeJobs } from "./probe-jobs.js";
import { removeBatch, removeChange } from "./remove-batch.js";
import { renderJob } from "./render-job.js";

/**
 * launchd on macOS: services as LaunchDaemons (system) or LaunchAgents (user), timers as calendar
 * jobs. launchd has no ordering between jobs, so `after` is ignored entirely, `*.target` entries
 * included (the seed: "ignored" on launchd), hence `after: "ignored"`. It cannot enable a
 * unit the system ships, so a service needs `exec`.
 */
export const launchdProvider = defineProvider({
  apiVersion: 1,
  name: "launchd",
  serves: { inits: ["launchd"], types: ["service", "timer"] },
  capabilities: {
    service: {
      userServices: true,
      distroUnits: false,
      after: "ignored",
      escapeHatch: "launchd",
      displayManager: false,
      reloadSignal: true,
    },
    timer: { userTimers: true },
  },
  check: (resource) => checkJob(resource),
  warnings: hatchWarnings,
  render: renderJob,
  observe: observeJobs,
  apply: applyChange,
  applyBatch,
  remove: removeChange,
  removeBatch,
  managedFolders,
  probe: probeJobs,
  logs: jobLogs,
});
