/** How to reach a user's crontab: as root or not, and on the live host or inside an image root. */
export interface CrontabAccess {
  /** Whether tend runs as root (then the user is named with `-u`). */
  asRoot: boolean;
  /** `--root DIR`: run the image's own crontab inside it with `chroot`, never the host's. */
  root?: string | undefined;
}

/**
 * The `crontab` command for a user. As root it names the user with `-u`; as anyone else it leaves
 * `-u` out and acts on the invoking user (the only one a non-root run can manage), because some
 * crons (cronie) refuse `-u` from an unprivileged user even for their own name. Under `--root`
 * it runs the image's crontab through `chroot`, so the image's spool changes, not the host's.
 */
export function crontabArgv(user: string, access: CrontabAccess, ...args: string[]): string[] {
  const crontab = access.asRoot ? ["crontab", "-u", user, ...args] : ["crontab", ...args];
  return access.root ? ["chroot", access.root, ...crontab] : crontab;
}

/** Whether this process runs as root (false where there is no such notion). */
export function runningAsRoot(): boolean {
  return process.getuid?.() === 0;
}
