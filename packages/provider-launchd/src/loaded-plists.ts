import { createHash } from "node:crypto";
import type { ProviderState, Resource } from "@tend/core/contract";
import { plistContent } from "./render-job.js";

/**
 * Loaded-definition drift on launchd: launchd keeps the definition it read at `bootstrap` and
 * never looks at the plist again, so tend notes, per label, the hash of the plist each bootstrap
 * loaded (in its state bag, `loaded`). A loaded job whose noted hash is not that of the plist tend
 * renders now runs an older definition (an apply stopped between writing the plist and loading
 * it, a plist restored by hand); apply boots it out and bootstraps it again.
 */
const KEY = "loaded";

export function plistHash(resource: Extract<Resource, { type: "service" | "timer" }>): string {
  return createHash("sha256").update(plistContent(resource)).digest("hex");
}

function noted(state: ProviderState | undefined): Record<string, string> {
  const value = state?.get<Record<string, string>>(KEY);
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value : {};
}

/** Notes the plist a bootstrap just loaded for `label`. */
export function noteLoaded(state: ProviderState, label: string, hash: string): void {
  state.set(KEY, { ...noted(state), [label]: hash });
}

/** Forgets what was loaded for `label` (booted out for good). */
export function forgetLoaded(state: ProviderState, label: string): void {
  const { [label]: _gone, ...rest } = noted(state);
  state.set(KEY, rest);
}

/** Whether launchd holds an older definition of `label` than `hash`; false when nothing was noted. */
export function loadedOlder(state: ProviderState | undefined, label: string, hash: string): boolean {
  const was = noted(state)[label];
  return was !== undefined && was !== hash;
}
