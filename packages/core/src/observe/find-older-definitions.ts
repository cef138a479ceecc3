import type { Artifact } from "../contract/artifact.js";
import type { Observation } from "../contract/observation.js";
import type { HostFileAccess } from "../host/host-access.js";
import type { Resource } from "../model/resource-schema.js";
import type { StateFile } from "../state/state-file.js";
import { processStartedAt } from "./process-start.js";

/**
 * `/proc/stat`'s boot time is in whole seconds, so a start time read from /proc may be up to a
 * second early: a file counts as newer than the process only when it is newer by more than that.
 */
const START_TIME_SLACK_MS = 1000;

/**
 * Loaded-definition drift: for every running service tend manages, the files of its definition
 * (what its provider renders: a unit, a run script, an init script) that changed after its main
 * process started, by resource key: the init runs an older definition than the file on disk (an
 * apply killed between writing and restarting, a file restored by hand, an image rebuilt under a
 * running host). Read through /proc and the files' modification times, no process run.
 */
export async function findOlderDefinitions(
  resources: Resource[],
  observations: Map<string, Observation>,
  rendered: Map<string, Artifact[]>,
  state: StateFile,
  files: HostFileAccess,
): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  let procStat: string | null | undefined;
  for (const resource of resources) {
    if (resource.type !== "service") continue;
    const key = `service:${resource.name}`;
    const observation = observations.get(key);
    const pid = observation?.mainPid;
    const definition = (rendered.get(key) ?? []).filter((a) => (a.store ?? "file") === "file");
    if (!state.resources[key] || observation?.state !== "running" || pid === undefined || definition.length === 0) continue;
    procStat ??= await files.readFile("/proc/stat").catch(() => null);
    const pidStat = procStat === null ? null : await files.readFile(`/proc/${pid}/stat`).catch(() => null);
    const started = pidStat === null || procStat === null ? undefined : processStartedAt(pidStat, procStat);
    if (started === undefined) continue;
    const newer: string[] = [];
    for (const artifact of definition) {
      const modified = await files.modifiedAt(artifact.path).catch(() => null);
      if (modified !== null && modified > started + START_TIME_SLACK_MS) newer.push(`running an older definition than ${artifact.path}`);
    }
    if (newer.length > 0) found.set(key, newer);
  }
  return found;
}
