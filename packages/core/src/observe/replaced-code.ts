/**
 * The files a process runs code from that have since been replaced or deleted on disk: the
 * executable mappings of `/proc/PID/maps` (its program and every library it loaded) whose path
 * the kernel marks ` (deleted)`. A package upgrade replaces a file by renaming a new one over it,
 * so the running process keeps the old inode and the mark appears. Memory that was never a file
 * (`memfd:`, SysV shared memory, `/dev/zero`) is left out. In the order of the maps: the program
 * first.
 */
export function replacedCode(maps: string): string[] {
  const found: string[] = [];
  // Nearly always nothing is: one search of the text, not a match per line.
  if (!maps.includes(" (deleted)")) return found;
  for (const line of maps.split("\n")) {
    const match = /^\S+\s+(\S+)\s+\S+\s+\S+\s+(\d+)\s+(\/.*) \(deleted\)$/.exec(line);
    if (!match) continue;
    const [, perms, inode, path] = match as unknown as [string, string, string, string];
    if (!perms.includes("x") || inode === "0") continue;
    if (path.startsWith("/dev/") || path.startsWith("/memfd:") || path.startsWith("/SYSV")) continue;
    if (!found.includes(path)) found.push(path);
  }
  return found;
}
