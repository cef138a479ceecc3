import type { HostFiles } from "@tend/core/contract";

/** OpenRC's dependency cache; `rc-status` refreshes it when a script changed. */
export const DEPTREE_PATH = "/run/openrc/deptree";

/**
 * Whether anything on the host provides `net`, which `need net` requires: without a provider
 * OpenRC refuses to start the service (`needs non existent service 'net'`).
 *
 * OpenRC's dependency cache holds `net` as a service (a script of that name, or a virtual one
 * with `providedby`) when something provides it, including sysv scripts whose LSB headers it
 * translated. The cache is rebuilt only when a script is newer than it in whole seconds, so a
 * provider installed in the second the cache was built is missing from it: the scripts and
 * their conf.d files are scanned too (`provide … net`, `rc_provide="… net"`), and are all there
 * is offline (an image root has no /run/openrc). A provider OpenRC would still leave out (a
 * `keyword` excluding this kind of system) passes here and fails at start with OpenRC's own
 * `needs service(s) net`.
 */
export async function hostProvidesNet(files: HostFiles, offline: boolean): Promise<boolean> {
  const deptree = offline ? null : await files.readFile(DEPTREE_PATH);
  if (deptree !== null && deptreeHasService(deptree, "net")) return true;
  return scriptsProvideNet(files);
}

/** True when the cache holds `depinfo_N_service='<name>'`. */
export function deptreeHasService(deptree: string, name: string): boolean {
  return deptree.split("\n").some((line) => /^depinfo_\d+_service=/.test(line) && line.endsWith(`='${name}'`));
}

const PROVIDE_NET = /^[ \t]*provide[ \t](?:[^\n#;]*[ \t])?net(?:[ \t;]|$)/m;
const RC_PROVIDE_NET = /^[ \t]*rc_provide=["']?(?:[^\n#"']*[ \t])?net(?:[ \t"']|$)/m;

async function scriptsProvideNet(files: HostFiles): Promise<boolean> {
  for (const [dir, pattern] of [
    ["/etc/init.d", PROVIDE_NET],
    ["/etc/conf.d", RC_PROVIDE_NET],
  ] as const) {
    for (const name of (await files.readDir(dir)) ?? []) {
      if (dir === "/etc/init.d" && name === "net") return true;
      const text = await files.readFile(`${dir}/${name}`);
      if (text !== null && pattern.test(text)) return true;
    }
  }
  return false;
}
