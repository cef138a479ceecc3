import { lstatSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { errors } from "../errors/catalogue.js";
import { hostPathParts } from "./host-path.js";

/** As the kernel's limit for one path walk. */
const MAX_LINKS = 40;

/**
 * The real path of a host path inside `root`, resolved the way a process chrooted into `root`
 * would see it: every symlink on the way is followed, an absolute target starts again at `root`
 * and `..` never climbs above it, so nothing a link says can lead outside. The last part is
 * followed only with `followLast`; tend never writes or deletes through a link it did not make.
 * Parts that do not exist yet are appended as written. Every existing folder and link the walk
 * went through is added to `visited`, in order: whoever controls one of them steers the walk.
 */
export function resolveBeneath(root: string, hostPath: string, followLast = false, visited?: string[]): string {
  let done: string[] = [];
  let todo = hostPathParts(hostPath);
  let links = 0;
  while (todo.length > 0) {
    const part = todo[0]!;
    todo = todo.slice(1);
    if (part === "..") {
      done.pop();
      continue;
    }
    if (todo.length === 0 && !followLast) {
      done.push(part);
      break;
    }
    const candidate = join(root, ...done, part);
    let isLink = false;
    try {
      isLink = lstatSync(candidate).isSymbolicLink();
      visited?.push(candidate);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
      done.push(part);
      for (const rest of todo) {
        if (rest === "..") done.pop();
        else done.push(rest);
      }
      break;
    }
    if (!isLink) {
      done.push(part);
      continue;
    }
    links += 1;
    if (links > MAX_LINKS) throw errors.unsafePath(hostPath, `resolving it inside ${root} follows more than ${MAX_LINKS} symlinks`, { action: "use" });
    const target = readlinkSync(candidate);
    if (target.startsWith("/")) done = [];
    todo = [...target.split("/").filter((p) => p !== "" && p !== "."), ...todo];
  }
  return join(root, ...done);
}
