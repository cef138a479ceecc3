import type { Artifact } from "../contract/artifact.js";
import type { Observation } from "../contract/observation.js";
import type { HostFileAccess } from "../host/host-access.js";
import type { Resource } from "../model/resource-schema.js";
import type { StateFile } from "../state/state-file.js";
import { processStartedAt } from "./process-start.js";
import { runningPid } from "./running-pid.js";

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
  const candidates = resources.flatMap((resource) => {
    if (resource.type !== "service") return [];
    const key = `service:${resource.name}`;
    const observation = observations.get(key);
    const pid = runningPid(observation);
    const definition = (rendered.get(key) ?? []).filter((a) => (a.store ?? "file") === "file");
    if (!state.resources[key] || pid === undefined || definition.length === 0) return [];
    return [{ key, pid, definition }];
  });
  if (candidates.length === 0) return found;
  // Every read at once (the boot time, each process's start, each file's time): on a remote host
  // they share one round trip.
  const [procStat, reads] = await Promise.all([
    files.readFile("/proc/stat").catch(() => null),
    Promise.all(
      candidates.map(async ({ key, pid, definition }) => {
        const [pidStat, modified] = await Promise.all([files.readFile(`/proc/${pid}/stat`).catch(() => null), Promise.all(definition.map((artifact) => files.modifiedAt(artifact.path).catch(() => null)))]);
        return { key, definition, pidStat, modified };
      }),
    ),
  ]);
  if (procStat === null) return found;
  const results = reads.map(({ key, definition, pidStat, modified }) => {
    const started = pidStat === null ? undefined : processStartedAt(pidStat, procStat);
    if (started === undefined) return undefined;
    const newer = definition.filter((_, i) => modified[i] !== null && modified[i]! > started + START_TIME_SLACK_MS);
    return newer.length > 0 ? ([key, newer.map((a) => `running an older definition than ${a.path}`)] as const) : undefined;
  });
  for (const result of results) if (result) found.set(result[0], result[1]);
  return found;
}
