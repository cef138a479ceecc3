const ENABLED = new Set(["enabled", "enabled-runtime"]);
const DISABLED = new Set(["disabled", "linked", "linked-runtime"]);

/**
 * Whether a unit starts at boot, from its unit file state. `static` (no `[Install]`),
 * `masked`, `indirect` (only `Also=`), `generated`, `alias`, `transient` and `bad` cannot be
 * enabled or disabled by `systemctl enable`, so their answer is undefined: unobservable, left out
 * of the comparison, never drift (Datum's rule, extended to every state of that kind).
 */
export function enabledFromUnitFileState(state: string | undefined): boolean | undefined {
  if (state === undefined) return undefined;
  if (ENABLED.has(state)) return true;
  if (DISABLED.has(state)) return false;
  return undefined;
}
