/** The test hosts, one image (and one init) each: the integration project builds them all. */
export const HOST_IMAGES = ["systemd", "runit", "openrc", "s6", "cron", "dinit", "s6rc", "supervisord"] as const;

/** Hosts only the benchmark starts (built on demand, never by the test run). */
export const BENCH_IMAGES = ["runit-python"] as const;

export type TestImageName = (typeof HOST_IMAGES)[number];

/** Every host the harness can start. */
export type HostImageName = TestImageName | (typeof BENCH_IMAGES)[number];

/** How one host image is built, run and watched. Folder: packages/testkit/images/<name>. */
export interface HostImage {
  /** The image its Dockerfile builds FROM (passed as the build arg PARENT). */
  parent: "base" | HostImageName;
  /**
   * Overlay images only: the programs TEND_IT_OVERLAY/<name> must hold in one of its bin folders.
   * Debian packages none of them; without the folder the image is not built.
   */
  overlayPrograms?: readonly string[];
  /** Capabilities beyond the engine's default set. */
  capabilities: readonly string[];
  /** systemd as PID 1: seccomp and apparmor unconfined, the host's cgroup namespace and tree. */
  bootsSystemd?: true;
  /** A shell script that exits 0 once the init has finished booting. */
  ready: string;
  /** A shell script printing the init's own view (status, log), for failure messages. */
  status: string;
}

const runitReady = `[ "$(cat /proc/1/comm)" = runsvdir ] || exit 1
for s in /etc/service/*; do [ -e "$s" ] || continue; sv status "$s" >/dev/null || exit 1; done`;
const runitStatus = `echo "runsvdir log: $(ps -o args= -p 1 | tr -s .)"; sv status /etc/service/*`;
const s6Status = `for d in /run/service/*; do [ -d "$d" ] && echo "$d: $(s6-svstat "$d" 2>&1)"; done; true`;

export const HOST_IMAGE_SPECS: Readonly<Record<HostImageName, HostImage>> = {
  systemd: {
    parent: "base",
    capabilities: ["SYS_ADMIN", "NET_ADMIN", "SYS_PTRACE", "AUDIT_CONTROL"],
    bootsSystemd: true,
    ready: `state=$(systemctl is-system-running --wait 2>/dev/null)
case "$state" in running|degraded) ;; *) exit 1 ;; esac
systemctl is-active --quiet user@1000.service`,
    status: "systemctl --failed --no-pager; journalctl -b --no-pager -n 200",
  },
  runit: { parent: "base", capabilities: [], ready: runitReady, status: runitStatus },
  // The fleet benchmark's hosts when Ansible is compared (its modules need Python on the target).
  "runit-python": { parent: "runit", capabilities: [], ready: runitReady, status: runitStatus },
  openrc: {
    parent: "base",
    capabilities: [],
    ready: `[ -e /run/tend-it-booted ] && [ "$(rc-status --runlevel)" = default ]`,
    status: "rc-status --all; tail -n 100 /var/log/rc.log",
  },
  s6: {
    parent: "base",
    capabilities: [],
    ready: `[ "$(cat /proc/1/comm)" = s6-svscan ] && [ -p /run/service/.s6-svscan/control ]`,
    status: s6Status,
  },
  cron: {
    parent: "runit",
    // SYS_PTRACE: strace reads the calls of crontab, which is setgid (without it, only their addresses).
    capabilities: ["AUDIT_CONTROL", "SYS_PTRACE"],
    ready: `${runitReady}\nsv status cron | grep -q '^run:' && pgrep -x cron >/dev/null`,
    status: `${runitStatus}; tail -n 50 /var/log/syslog`,
  },
  dinit: {
    parent: "base",
    overlayPrograms: ["dinit", "dinitctl"],
    capabilities: [],
    ready: "dinitctl is-started boot >/dev/null",
    status: "dinitctl list",
  },
  s6rc: {
    parent: "s6",
    overlayPrograms: ["s6-rc", "s6-rc-init", "s6-rc-compile", "s6-rc-update", "s6-rc-db"],
    capabilities: [],
    ready: `[ -e /run/tend-it-booted ]`,
    status: `s6-rc -l /run/s6-rc -a list; ${s6Status}`,
  },
  supervisord: {
    parent: "base",
    capabilities: [],
    // supervisorctl status exits 0 when every program runs and 3 when one does not (LSB's codes).
    ready: `[ "$(cat /proc/1/comm)" = supervisord ] || exit 1
supervisorctl status >/dev/null
status=$?
[ $status -eq 0 ] || [ $status -eq 3 ]`,
    status: "supervisorctl status; tail -n 100 /var/log/supervisor/supervisord.log",
  },
};

/** Narrows a string to a host image name. */
export function isHostImageName(name: string): name is HostImageName {
  return (HOST_IMAGES as readonly string[]).includes(name) || (BENCH_IMAGES as readonly string[]).includes(name);
}
