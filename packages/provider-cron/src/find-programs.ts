import { lstat } from "node:fs/promises";
import type { HostFiles } from "@tend/core/contract";

/** Where tend looks for cron's programs: the folders of the PATH tend runs commands with. */
export const PROGRAM_DIRS = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];

/** A program file on the host. */
export interface HostProgram {
  /** Where it was found (a link's own path). */
  path: string;
  /** The host path it resolves to (which may not exist); undefined for a loop of links. */
  file: string | undefined;
  /** A regular file with an execute bit. */
  executable: boolean;
}

const MAX_LINKS = 40;

/** Each `name` in `dirs` that exists on the host (a dangling link too), links resolved. */
export async function findPrograms(name: string, files: HostFiles, dirs: string[] = PROGRAM_DIRS): Promise<HostProgram[]> {
  const found: HostProgram[] = [];
  for (const dir of dirs) {
    const path = `${dir}/${name}`;
    if (!(await files.exists(path))) continue;
    const file = await resolveHostPath(path, files);
    found.push({ path, file, executable: file !== undefined && (await isExecutableFile(file, files)) });
  }
  return found;
}

/**
 * A host path with every link in it resolved the way the host sees it: an absolute target starts
 * again at the host's `/` (under `--root`, the root), `..` never climbs above it. Undefined for a
 * loop. Resolving here, not through the machine's own `realpath`, keeps an image root's absolute
 * links (`/usr/sbin/crond -> /bin/busybox`) inside the root.
 */
export async function resolveHostPath(path: string, files: HostFiles): Promise<string | undefined> {
  let rest = path.split("/").filter(Boolean);
  let resolved = "";
  let links = 0;
  while (rest.length > 0) {
    const [part, ...after] = rest as [string, ...string[]];
    rest = after;
    if (part === ".") continue;
    if (part === "..") {
      resolved = resolved.slice(0, resolved.lastIndexOf("/"));
      continue;
    }
    const next = `${resolved}/${part}`;
    const target = await files.readLink(next);
    if (target === null) {
      resolved = next;
      continue;
    }
    if ((links += 1) > MAX_LINKS) return undefined;
    rest = [...target.split("/").filter(Boolean), ...rest];
    if (target.startsWith("/")) resolved = "";
  }
  return resolved === "" ? "/" : resolved;
}

/** HostFiles has no stat, so this looks at the file's real path (inside `--root` when given). */
async function isExecutableFile(file: string, files: HostFiles): Promise<boolean> {
  try {
    const info = await lstat(files.real(file));
    return info.isFile() && (info.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}
