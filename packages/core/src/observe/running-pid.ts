import type { Observation } from "../contract/observation.js";

/**
 * The main pid of a running service, when its provider reported a usable one: a whole number
 * above 1, since it becomes a /proc path. Undefined otherwise.
 */
export function runningPid(observation: Observation | undefined): number | undefined {
  const pid = observation?.mainPid;
  return observation?.state === "running" && pid !== undefined && Number.isInteger(pid) && pid > 1 ? pid : undefined;
}
