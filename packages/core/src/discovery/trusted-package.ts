import { lstatSync } from "node:fs";
import { dirname } from "node:path";

/**
 * As root, tend imports a provider only when no other user could have changed it: every path
 * given (the module it loads, the folders above it up to its package, the package's folder and
 * link, up to the `node_modules` it was found in) must be owned by root and not writable by group
 * or others (a sticky, root-owned folder such as /tmp excepted). A user who can write there could
 * make root run their code. Returns what is wrong, or undefined.
 */
export function untrustedPath(paths: string[]): string | undefined {
  for (const path of new Set(paths)) {
    const problem = problemWith(path);
    if (problem) return problem;
  }
  return undefined;
}

/** Every folder from `path` up to `top` (both included), when `path` is inside `top`. */
export function foldersUpTo(path: string, top: string): string[] {
  const out: string[] = [];
  for (let dir = path; dir.startsWith(top); dir = dirname(dir)) {
    out.push(dir);
    if (dir === top || dirname(dir) === dir) break;
  }
  return out;
}

function problemWith(path: string): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  let info;
  try {
    info = lstatSync(path);
  } catch {
    return undefined;
  }
  if (info.isSymbolicLink()) {
    // A link's own mode means nothing; whoever owns it (or can write its folder) can repoint it.
    if (info.uid !== 0) return `${path} is a link owned by uid ${info.uid}, who could repoint what root would run`;
    return undefined;
  }
  if (info.uid !== 0) return `${path} belongs to uid ${info.uid}, who could change what root would run`;
  const sticky = (info.mode & 0o1000) !== 0 && info.isDirectory();
  if ((info.mode & 0o022) !== 0 && !sticky) return `${path} is writable by ${info.mode & 0o002 ? "every user" : "its group"}, who could change what root would run`;
  return undefined;
}
