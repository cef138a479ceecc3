import type { HostFiles } from "@tend/core/contract";

/** One process of a unit's control group: its pid and its parent's, as /proc says. */
export interface GroupProcess {
  unit: string;
  pid: string;
  ppid: string;
}

/** PID 1's own group, which the units' groups sit beside (`…/system.slice`). */
const INIT_SCOPE = "/init.scope";

/**
 * What the shell of mainPidsFromCgroups prints, read through this machine's files instead
 * (HostFiles.local): no shell, whose `read` takes a system call per byte of every process's
 * `stat` (~150 ms of CPU for 200 services, beside systemd answering tend's lists on the same
 * cores). Step for step the shell's: the group paths from /proc/1/cgroup, the first hierarchy
 * that has `system.slice`, each unit's `cgroup.procs` (TEND_SERVICES: every `tend-*.service`
 * group there), and the parent pid from each process's `stat`, after the last `) ` (a program's
 * name may hold one). Undefined where the shell would print nothing at all.
 */
export async function readControlGroups(units: string[], tendServices: string, files: HostFiles): Promise<GroupProcess[] | undefined> {
  let unified = "";
  let named = "";
  for (const line of ((await files.readFile("/proc/1/cgroup").catch(() => null)) ?? "").split("\n")) {
    if (line.startsWith("0::")) unified = line.slice(3);
    else if (line.includes(":name=systemd:")) named = line.slice(line.indexOf(":name=systemd:") + ":name=systemd:".length);
  }
  let base: string | undefined;
  for (const dir of [`/sys/fs/cgroup${withoutInitScope(unified)}`, `/sys/fs/cgroup/unified${withoutInitScope(unified)}`, `/sys/fs/cgroup/systemd${withoutInitScope(named)}`]) {
    if (await files.isDirectory(`${dir}/system.slice`).catch(() => false)) {
      base = `${dir}/system.slice`;
      break;
    }
  }
  if (base === undefined) return undefined;
  const groups: string[] = [];
  for (const unit of units) {
    if (unit !== tendServices) groups.push(unit);
    else for (const name of (await files.readDir(base).catch(() => null)) ?? []) if (/^tend-.*\.service$/.test(name)) groups.push(name);
  }
  const read = (path: string) => files.readFile(path).catch(() => null);
  const found = await Promise.all(
    groups.map(async (unit) => {
      const procs = await read(`${base}/${unit}/cgroup.procs`);
      if (procs === null) return [];
      const pids = procs.split("\n").filter((pid) => pid !== "");
      const stats = await Promise.all(pids.map((pid) => read(`/proc/${pid}/stat`)));
      return pids.flatMap((pid, i) => {
        const stat = stats[i]?.split("\n")[0];
        if (stat === undefined) return [];
        const close = stat.lastIndexOf(") ");
        const fields = (close < 0 ? stat : stat.slice(close + 2)).split(/\s+/).filter((field) => field !== "");
        return [{ unit, pid, ppid: fields[1] ?? "" }];
      });
    }),
  );
  return found.flat();
}

/** The shell's `${path%/init.scope}`. */
function withoutInitScope(path: string): string {
  return path.endsWith(INIT_SCOPE) ? path.slice(0, -INIT_SCOPE.length) : path;
}
