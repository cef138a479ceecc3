import type { BootPrediction, HostFiles } from "@tend/core/contract";
import { linksTo } from "./links-to.js";
import { RUNSVDIR, type ServiceLayout } from "./service-layout.js";
import type { UserRunsvdir } from "./user-runsvdir.js";

/**
 * Boot truth on runit: at boot runsvdir starts a runsv for every link in {@link RUNSVDIR}, and
 * runsv starts the service unless its directory holds a `down` file. A user service runs only
 * when its user's runsvdir does, which is itself such a service. Reads only links and `down`
 * files, no process.
 */
export async function predictBoot(layout: ServiceLayout, runsvdir: UserRunsvdir | undefined, files: HostFiles, { linked, down }: BootReads): Promise<BootPrediction> {
  if (!linked) return { starts: false, why: `it is not linked into ${RUNSVDIR}` };
  if (down) return { starts: false, why: `${layout.dir}/down keeps runsv from starting it at boot` };
  if (!layout.user || runsvdir === undefined) return { starts: true };
  const why = `it runs under ${runsvdir.user}'s runsvdir ${runsvdir.dir}`;
  if (!(await linksTo(files, runsvdir.link, runsvdir.dir))) return { starts: false, why: `${why}, which is not linked into ${RUNSVDIR}, so nothing starts it at boot` };
  if (await files.exists(`${runsvdir.dir}/down`)) return { starts: false, why: `${why}, which has a down file, so nothing starts it at boot` };
  return { starts: true };
}

/** What a service's start at boot depends on in its own directory: its link (true without one) and its `down` file. */
export interface BootReads {
  linked: boolean;
  down: boolean;
}

/** Both reads at once (one round trip on a remote host). */
export async function readBoot(layout: ServiceLayout, files: HostFiles): Promise<BootReads> {
  const [linked, down] = await Promise.all([layout.link === undefined || linksTo(files, layout.link, layout.dir), files.exists(`${layout.dir}/down`)]);
  return { linked, down };
}
