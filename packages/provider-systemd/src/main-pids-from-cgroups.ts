import type { ReadContext } from "@tend/core/contract";
import { readControlGroups, type GroupProcess } from "./read-control-groups.js";

/** In a unit list for mainPidsFromCgroups: every tend service's group, found by the shell (a short argv for thousands). */
export const TEND_SERVICES = "tend-*.service";

/**
 * For each system service unit, the processes of its control group and their parents: one shell
 * reading `cgroup.procs` and each process's `stat` (no process per file). The units' groups are
 * under `system.slice` beside PID 1's own `init.scope`, in the first hierarchy that has it: the
 * unified one (cgroup v2 at /sys/fs/cgroup, or /sys/fs/cgroup/unified on a hybrid host), else
 * systemd's own v1 hierarchy. A unit whose group is elsewhere (Slice=) prints nothing. The
 * argument TEND_SERVICES stands for every tend service that has a group.
 */
const SCRIPT = `unified= named=
while IFS= read -r line; do
  case $line in 0::*) unified=\${line#0::} ;; *:name=systemd:*) named=\${line#*:name=systemd:} ;; esac
done < /proc/1/cgroup
base=
for d in "/sys/fs/cgroup\${unified%/init.scope}" "/sys/fs/cgroup/unified\${unified%/init.scope}" "/sys/fs/cgroup/systemd\${named%/init.scope}"; do
  [ -d "$d/system.slice" ] && { base=$d/system.slice; break; }
done
[ -n "$base" ] || exit 0
group() {
  unit=$1
  while read -r p; do
    { read -r stat < "/proc/$p/stat"; } 2>/dev/null || continue
    set -- \${stat##*) }
    printf '%s %s %s\\n' "$unit" "$p" "$2"
  done < "$base/$unit/cgroup.procs"
}
for u in "$@"; do
  if [ "$u" = '${TEND_SERVICES}' ]; then
    for f in "$base"/${TEND_SERVICES}/cgroup.procs; do
      [ -r "$f" ] || continue
      f=\${f%/cgroup.procs}
      group "\${f##*/}"
    done
  elif [ -r "$base/$u/cgroup.procs" ]; then
    group "$u"
  fi
done`;

/**
 * The main pid of each of `units` (or of every tend service, for TEND_SERVICES) that a manager's
 * child is alone in its group (a service running its one main process, with or without children
 * of its own): what `systemctl show -p MainPID` says of a running service, without a D-Bus call
 * per unit (~1 ms each: 200 ms of a no-op plan of 200 services). A unit with no such process or
 * more than one (a reload or ExecStartPost still running, a process left by KillMode=process, a
 * forking daemon's guessed pid) is not in the answer: ask systemctl. A group also holds what a
 * unit that is not running left behind, so a pid is the main pid only of a unit that runs.
 * System scope only (a user manager is not PID 1). The shell runs on a fleet host; on the host
 * tend runs on (HostFiles.local) the same files are read directly (readControlGroups).
 */
export async function mainPidsFromCgroups(units: string[], ctx: ReadContext): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  if (ctx.scope.kind !== "system" || units.length === 0) return found;
  // This machine's own groups are read directly: a process, and the shell's byte-by-byte reads, cost more.
  const processes = ctx.files.local === true ? await readControlGroups(units, TEND_SERVICES, ctx.files) : await readByShell(units, ctx);
  if (processes === undefined) return found;
  const children = new Map<string, number[]>();
  for (const { unit, pid, ppid } of processes) {
    if (!unit || ppid !== "1" || !/^[1-9]\d*$/.test(pid)) continue;
    children.set(unit, [...(children.get(unit) ?? []), Number(pid)]);
  }
  const asked = new Set(units);
  const tendServices = asked.has(TEND_SERVICES);
  for (const [unit, pids] of children) {
    const wanted = asked.has(unit) || (tendServices && unit.startsWith("tend-") && unit.endsWith(".service"));
    if (wanted && pids.length === 1) found.set(unit, pids[0]!);
  }
  return found;
}

/** The shell's lines as processes; undefined when it failed. */
async function readByShell(units: string[], ctx: ReadContext): Promise<GroupProcess[] | undefined> {
  const result = await ctx.run.run({ argv: ["/bin/sh", "-c", SCRIPT, "sh", ...units], okCodes: "any" });
  if (result.exitCode !== 0) return undefined;
  return result.stdout.split("\n").map((line) => {
    const [unit = "", pid = "", ppid = ""] = line.split(" ");
    return { unit, pid, ppid };
  });
}
