import { lstatSync, realpathSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * As root, tend runs what a file says (a provider's code, a spec's services) only when no other
 * user could have changed it: every path given must belong to root (or to one of `owners`) and
 * not be writable by group or others (a sticky folder such as /tmp excepted: there, others cannot
 * rename what is not theirs). A user who can write there could make root run their code. A link
 * is judged by its owner; what it points to is given as a path of its own. Returns what is wrong,
 * or undefined (always, when tend does not run as root).
 */
export function untrustedPath(paths: string[], owners: readonly number[] = [0]): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const path of new Set(paths)) {
    const problem = problemWith(path, owners);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Whom root trusts besides itself with what it runs: the user who ran sudo (`SUDO_UID`), who
 * can be root anyway. A root shell of no sudo trusts root alone.
 */
export function sudoOwners(): number[] {
  const sudoUid = Number(process.env.SUDO_UID);
  return Number.isSafeInteger(sudoUid) && sudoUid > 0 ? [0, sudoUid] : [0];
}

/**
 * As root, what another user could change of `file`: the file or a folder above it, as named and
 * where its links lead (untrustedPath of each). Undefined when only `owners` could, and always
 * when tend does not run as root.
 */
export function changeableFile(file: string, owners: readonly number[]): string | undefined {
  // Not root: nothing to resolve (every run starts here).
  if (process.getuid?.() !== 0) return undefined;
  const given = resolve(file);
  let real = given;
  try {
    real = realpathSync(given);
  } catch {
    // gone meanwhile: the read names it
  }
  return untrustedPath([...foldersUpTo(given, "/"), ...foldersUpTo(real, "/")], owners);
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

function problemWith(path: string, owners: readonly number[]): string | undefined {
  let info;
  try {
    info = lstatSync(path);
  } catch {
    return undefined;
  }
  if (info.isSymbolicLink()) {
    // A link's own mode means nothing; whoever owns it (or can write its folder) can repoint it.
    if (!owners.includes(info.uid)) return `${path} is a link owned by uid ${info.uid}, who could repoint what root would run`;
    return undefined;
  }
  if (!owners.includes(info.uid)) return `${path} belongs to uid ${info.uid}, who could change what root would run`;
  const sticky = (info.mode & 0o1000) !== 0 && info.isDirectory();
  if ((info.mode & 0o022) !== 0 && !sticky) return `${path} is writable by ${info.mode & 0o002 ? "every user" : "its group"}, who could change what root would run`;
  return undefined;
}
