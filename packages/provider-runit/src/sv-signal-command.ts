import type { Signal } from "@tend/core/contract";

/** The `sv` command that delivers each signal; sv(8) has none for WINCH. */
const SV_SIGNAL_COMMANDS: Partial<Record<Signal, string>> = {
  HUP: "hup",
  INT: "interrupt",
  QUIT: "quit",
  USR1: "1",
  USR2: "2",
  TERM: "term",
  ALRM: "alarm",
  CONT: "cont",
};

/** The `sv` command for `reloadSignal`, or undefined when sv cannot send that signal. */
export function svSignalCommand(signal: Signal): string | undefined {
  return SV_SIGNAL_COMMANDS[signal];
}

/** The signals sv can send, in the order of the list above (for messages). */
export const SV_SIGNALS = Object.keys(SV_SIGNAL_COMMANDS) as Signal[];
