import type { ReadContext } from "@tend/core/contract";
import type { JobChange } from "./job-change.js";
import { jobLoaded } from "./job-loaded.js";
import type { DomainView } from "./read-domain.js";

/**
 * Which of these jobs' labels are loaded, from a domain print already read; when it could not be
 * read, each label is asked on its own (`launchctl print <domain>/<label>`).
 */
export async function loadedLabels(jobs: JobChange[], view: DomainView, ctx: ReadContext): Promise<Set<string>> {
  if (!view.present) return new Set();
  if (view.loaded) return new Set(jobs.map(({ job }) => job.label).filter((label) => view.loaded!.has(label)));
  const loaded = new Set<string>();
  for (const { job } of jobs) if (await jobLoaded(job, ctx)) loaded.add(job.label);
  return loaded;
}
