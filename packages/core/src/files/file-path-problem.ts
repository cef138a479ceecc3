/** The kernel's own file systems, mounted at these folders on every Linux host. */
const KERNEL_FOLDERS = ["/proc", "/sys"];

/**
 * Why a File cannot be at `path`, or undefined when it can: not `/` itself, and nothing in procfs
 * or sysfs, whose entries are the kernel's settings, not files tend could replace by writing a
 * copy beside them and renaming it over (sysctl.d, udev rules and tmpfiles.d set them). /dev is a
 * tmpfs where files can be made (/dev/shm); a device node there is an obstacle plan refuses.
 */
export function filePathProblem(path: string): string | undefined {
  if (path === "/") return "must name a file, not `/`";
  const folder = KERNEL_FOLDERS.find((f) => path === f || path.startsWith(`${f}/`));
  if (folder) return `must not be in ${folder}: the kernel's file system there holds its settings, not files tend can replace (use sysctl.d, udev rules or tmpfiles.d)`;
  return undefined;
}
