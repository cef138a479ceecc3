import type { BootPrediction } from "@tend/core/contract";
import { BOOT_RUNLEVELS } from "./script-name.js";

/**
 * Boot truth on OpenRC, from the runlevel links already read: boot starts the sysinit, boot and
 * default runlevels; a service linked only into another runlevel (or none) starts at boot only
 * when one of those needs it, which the links alone do not tell.
 */
export function predictBoot(linked: readonly string[]): BootPrediction {
  if (linked.some((runlevel) => (BOOT_RUNLEVELS as readonly string[]).includes(runlevel))) return { starts: true };
  if (linked.length === 0) return { starts: false, why: "it is in no runlevel (rc-update add it to default)" };
  const list = linked.join(", ");
  return { starts: false, why: `it is in the runlevel${linked.length > 1 ? "s" : ""} ${list}, which boot does not reach (it starts ${BOOT_RUNLEVELS.join(", ")})` };
}
