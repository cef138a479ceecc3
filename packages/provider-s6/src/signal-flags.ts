import type { Signal } from "@tend/core/contract";

/**
 * The s6-svc option that delivers each signal a service may name in `reloadSignal` (s6-svc(8):
 * `-a -q -h -k -t -i -1 -2 -p -c -y -b`). Typed over every signal tend accepts, so a signal added
 * to the model without an s6-svc option fails to compile here rather than at apply.
 */
export const SIGNAL_FLAGS: Record<Signal, string> = {
  HUP: "-h",
  INT: "-i",
  QUIT: "-q",
  USR1: "-1",
  USR2: "-2",
  TERM: "-t",
  WINCH: "-y",
  ALRM: "-a",
  CONT: "-c",
};

/** The s6-svc option for a signal, or undefined when s6-svc cannot send it. */
export function signalFlag(signal: string): string | undefined {
  return Object.hasOwn(SIGNAL_FLAGS, signal) ? SIGNAL_FLAGS[signal as Signal] : undefined;
}
