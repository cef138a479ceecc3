import { procStatFields, type HostFiles } from "@tend/core/contract";
import { parsePid } from "./read-daemon.js";
import { backgroundPidfile, type Supervision } from "./supervision.js";

/**
 * How a tend service's whole process group is ended. OpenRC has no cgroups here: supervise-daemon
 * and start-stop-daemon signal only the pid they started, so whatever that process started (the
 * other commands of a pipeline, a child left behind) would outlive a stop. Every tend service runs
 * in a process group of its own (supervise-daemon's child calls setsid(); start-stop-daemon
 * --background does too, one fork before the program), so after the program is stopped its group
 * gets TERM, and KILL when anything is still there 5 s later. dash's `kill` takes neither `-s`
 * nor `--` before a negative pid, so the form is `kill -TERM -PGID`.
 */
export const END_GROUP_FUNCTION = [
  "tend_end_group() {",
  '\t[ -n "$1" ] && [ "$1" -gt 1 ] 2>/dev/null || return 0',
  '\tkill -TERM "-$1" 2>/dev/null || return 0',
  "\tlocal waited=0",
  '\twhile kill -0 "-$1" 2>/dev/null; do',
  '\t\t[ "$waited" -ge 250 ] && { kill -KILL "-$1" 2>/dev/null; return 0; }',
  "\t\tsleep 0.02",
  "\t\twaited=$((waited + 1))",
  "\tdone",
  "}",
];

/** The process group of a pid: field 5 of /proc/PID/stat, counted after the command name's closing parenthesis. */
export const GROUP_OF_FUNCTION = [
  "tend_group_of() {",
  "\tlocal stat",
  '\tstat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0',
  "\tset -- ${stat##*) }",
  '\techo "$3"',
  "}",
];

/** A command that ends process group `group` as a stopping script would (for stops tend makes without the script). */
export function endGroupCommand(group: number): string[] {
  return ["/bin/sh", "-c", [...END_GROUP_FUNCTION, 'tend_end_group "$1"'].join("\n"), "tend-end-group", String(group)];
}

/**
 * The process group of a running tend service, as its script's `stop_pre` finds it: supervise-
 * daemon's `child_pid`, or the group a background daemon's `start_post` kept (else the group of
 * the pid in its pidfile). Read from files only; undefined when OpenRC holds none.
 */
export async function readProcessGroup(files: HostFiles, script: string, supervision: Supervision): Promise<number | undefined> {
  const options = `/run/openrc/options/${script}`;
  if (supervision === "supervise-daemon") return parsePid(await files.readFile(`${options}/child_pid`));
  const kept = parsePid(await files.readFile(`${options}/tend_group`));
  if (kept !== undefined) return kept;
  const pid = parsePid(await files.readFile(backgroundPidfile(script)));
  const stat = pid === undefined ? null : await files.readFile(`/proc/${pid}/stat`);
  return parsePid(stat === null ? null : (procStatFields(stat)[2] ?? null));
}
