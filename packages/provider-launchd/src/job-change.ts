import type { ResourceChange, Service, Timer } from "@tend/core/contract";
import type { LaunchdJob } from "./launchd-job.js";

/** One service or timer of a wave, with where it lives in launchd. */
export interface JobChange {
  change: ResourceChange & { resource: Service | Timer };
  job: LaunchdJob;
}
