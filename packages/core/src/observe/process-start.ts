/** Clock ticks per second of /proc's times: USER_HZ, 100 on every Linux architecture tend runs on. */
const USER_HZ = 100;

/**
 * The fields of a `/proc/PID/stat` text after the command name, from the state (field 3) on:
 * `[state, ppid, pgrp, …]`. The name is in parentheses and may hold spaces and parentheses
 * itself, so the fields are counted from its last `)`.
 */
export function procStatFields(pidStat: string): string[] {
  return pidStat.slice(pidStat.lastIndexOf(")") + 2).split(" ");
}

/**
 * When a process started, in ms since the epoch, from `/proc/PID/stat` (field 22, clock ticks
 * since boot) and `/proc/stat` (`btime`, boot time in whole seconds, so the answer may be up to
 * a second early). Undefined when either text is not what Linux writes.
 */
export function processStartedAt(pidStat: string, procStat: string): number | undefined {
  const ticks = Number(procStatFields(pidStat)[19]);
  const boot = /^btime (\d+)$/m.exec(procStat);
  if (!Number.isInteger(ticks) || ticks < 0 || !boot) return undefined;
  return Number(boot[1]) * 1000 + (ticks * 1000) / USER_HZ;
}
