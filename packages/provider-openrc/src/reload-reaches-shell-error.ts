import { TendError } from "@tend/core/contract";

/**
 * `reloadSignal` on a service whose exec keeps /bin/sh in front of the program (a pipeline, a
 * background job, a last command that is no program): supervise-daemon and `kill` signal the
 * process OpenRC started, which is that shell, so the signal would end it and OpenRC would start
 * the service again. A reload never becomes a restart (Datum), so plan refuses it.
 */
export function reloadReachesShellError(ref: string, signal: string): TendError {
  return new TendError(
    "TEND_OPENRC_RELOAD_SHELL",
    `${ref} sets reloadSignal = "${signal}", but its exec keeps /bin/sh in front of the program, so OpenRC would send SIG${signal} to the shell, which it ends, and the reload would become a restart`,
    {
      hint: `Put the command in a script that ends by exec'ing the program (or traps SIG${signal} itself), or drop reloadSignal and use restartOn`,
      field: "reloadSignal",
      resource: ref,
    },
  );
}
