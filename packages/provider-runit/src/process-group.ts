import { MANAGED_HEADER } from "@tend/core/contract";

/**
 * runit has no cgroups: runsv signals only the process it started. tend's `./run` therefore
 * starts the program as the leader of its own session and process group (`chpst -P`), so the
 * program keeps the pid runsv supervises and signals (`sv hup` reaches it alone), and notes that
 * group in {@link GROUP_FILE}; `./control/t` and `./finish` end the whole group, so nothing the
 * program started (the other side of a pipeline, a forked child) outlives a stop, a restart, a
 * removal or the program's own end.
 */

/** Where `./run` notes the program's process group, for `./finish` (runsv keeps its own state beside it). */
export const GROUP_FILE = "supervise/tend-group";

/** How long `./finish` lets the group's processes end after TERM before it kills them (tenths of a second; below sv's 7 s wait). */
const TERM_GRACE_TENTHS = 30;

/**
 * Before `./run` waits for the services it runs after (and may exit): forget a group noted before
 * a reboot, which `./finish` would otherwise take for this run's.
 */
export const FORGET_GROUP = `rm -f ${GROUP_FILE}`;

/** The last two lines of `./run`: note the group, then become the program, leading it. */
export function startInOwnGroup(argv: string): string[] {
  return [`echo $$ > ${GROUP_FILE} || exit 1`, `exec chpst -P ${argv}`];
}

/**
 * `./control/t`, which runsv runs instead of sending TERM itself on `sv down`, `restart`, `term`
 * and `exit` (runsv(8), CUSTOMIZE CONTROL): TERM and CONT to the whole process group of the pid
 * runsv supervises. Before `./run` has become the program (it may still wait for a service it
 * runs after) that pid leads no group: exit 1, and runsv signals it alone, as usual.
 */
export function renderControlTerm(): string {
  return CONTROL_TERM;
}

/** Made once: every service's `./control/t` is the same, and a big spec's share one string. */
const CONTROL_TERM = [
  "#!/bin/sh",
  MANAGED_HEADER,
  "# sv down, restart, term, exit: TERM to the program's whole process group, not the program alone",
  'pid=$(cat supervise/pid) && [ -n "$pid" ] && kill -TERM -"$pid" 2>/dev/null || exit 1',
  'kill -CONT -"$pid" 2>/dev/null',
  "exit 0",
  "",
].join("\n");

/**
 * The first lines of `./finish` (runsv runs it once the program has ended, before anything
 * else): TERM to what is left of the program's group, then KILL to whatever still runs after the
 * grace time. Zombies do not count as running: PID 1 reaps them in its own time. A process's
 * `stat` is `pid (comm) state ppid pgrp …`, and comm may hold `) `: the fields are counted from
 * the last `) `.
 */
export function endGroupLines(): string[] {
  return [
    "# End what is left of the program's process group (./run noted it): TERM, then KILL after 3 s",
    "# (each process's stat read whole by cat: the shell's read takes a system call per byte, and a",
    "# host's thousands of processes would stretch the 3 s past sv's 7 s wait)",
    "group_runs() {",
    `  cat /proc/[0-9]*/stat 2>/dev/null | awk -v g="$1" '{ sub(/.*\\) /, ""); if ($3 == g && $1 != "Z") f = 1 } END { exit !f }'`,
    "}",
    `group=$(cat ${GROUP_FILE} 2>/dev/null) && rm -f ${GROUP_FILE}`,
    'if [ -n "$group" ] && kill -TERM -"$group" 2>/dev/null; then',
    '  kill -CONT -"$group" 2>/dev/null',
    "  tries=0",
    `  while [ "$tries" -lt ${TERM_GRACE_TENTHS} ] && group_runs "$group"; do sleep 0.1; tries=$((tries + 1)); done`,
    '  if group_runs "$group"; then',
    '    echo "tend: killing what is left of process group $group, still running 3 s after TERM"',
    '    kill -KILL -"$group" 2>/dev/null',
    "  fi",
    "fi",
  ];
}
