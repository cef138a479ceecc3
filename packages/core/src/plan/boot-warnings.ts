import type { Operation } from "../contract/change.js";
import type { Observation } from "../contract/observation.js";

type Desired = { state?: "running" | "stopped"; enabled: boolean };

/**
 * Boot truth in the plan: warnings (never drift) for a service whose state would not survive a
 * reboot. First the spec's own desired state (running but not enabled, or stopped but enabled),
 * said once per service whatever runs now; otherwise the provider's prediction (`atBoot`) against
 * what runs after this plan, unless the plan changes the enablement the prediction was made from.
 */
export function bootWarnings(desired: Desired, observation: Observation | undefined, ops: ReadonlySet<Operation>): string[] {
  if (desired.state === "running" && !desired.enabled) {
    return ["desired running but not enabled: it runs after this apply, but would not start after a reboot"];
  }
  if (desired.state === "stopped" && desired.enabled) {
    return ["desired stopped but enabled: it stays stopped after this apply, but would start after a reboot"];
  }
  const atBoot = observation?.atBoot;
  if (!atBoot || !observation?.exists || ops.has("enable") || ops.has("disable")) return [];
  const runsAfterApply = ops.has("start") || ops.has("restart") ? true : ops.has("stop") ? false : observation.state && observation.state === "running";
  if (runsAfterApply === true && !atBoot.starts) return [`runs now, but would not start after a reboot: ${atBoot.why ?? "the init would not start it"}`];
  // A distro unit the spec only enables (no desired state) may rightly be stopped now: a oneshot.
  if (runsAfterApply === false && atBoot.starts && desired.state !== undefined) return [`stopped now, but would start after a reboot${atBoot.why ? `: ${atBoot.why}` : ""}`];
  return [];
}
