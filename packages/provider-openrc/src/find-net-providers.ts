import type { HostFiles } from "@tend/core";

/** OpenRC's dependency cache; `rc-status` refreshes it when a script changed. */
export const DEPTREE_PATH = "/run/openrc/deptree";

/**
 * Whether anything on the host provides `net`, which `need net` requires: without a provider
 * OpenRC refuses to start the service (`needs non existent service 'net'`).
 *
 * On a live host the answer is OpenRC's own dependency cache, which holds `net` as a service
 * (a script of that name, or a virtual one with `providedby`) exactly when something provides
 * it on this host; it also leaves out scripts whose `keyword` excludes this kind of system, as
 * Alpine's networking in a container. Offline (an image root, no /run/openrc) it scans the
 * scripts and their conf.d files for `provide … net` and `rc_provide="… net"`.
 */
export async function hostProvidesNet(files: HostFiles, offline: boolean): Promise<boolean> {
  const deptree = offline ? null : await files.readFile(DEPTREE_PATH);
  if (deptree !== null) return deptreeHasService(deptree, "net");
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
