import type { Signal } from "@tend/core/contract";

/**
 * How `dinitctl signal` is told the signal. It knows HUP, INT, QUIT, USR1, USR2, TERM and CONT by
 * name (dinit 0.22, `signal_to_int_map`) and takes any other as a number; WINCH and ALRM have the
 * same numbers on Linux and the BSDs.
 */
export function signalArgument(signal: Signal): string {
  if (signal === "WINCH") return "28";
  if (signal === "ALRM") return "14";
  return signal;
}
