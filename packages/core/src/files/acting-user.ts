import { errors } from "../errors/catalogue.js";
import { lookupUser } from "../host/passwd.js";

/** Who performs a write: tend's own process, or a child running as a folder's owner. */
export type Actor = { kind: "self" } | { kind: "user"; uid: number; gid: number; name: string };

/**
 * As root, nothing is written into a folder a non-root user owns except as that user: a user
 * can rename, replace or symlink anything inside their own folder, so a write as root there
 * could be steered anywhere. `owners` are the non-root owners of every folder and link the
 * path's resolution went through (see FolderResolver), so a link a user planted that leads out
 * of their folder (into `/etc`) still makes the write theirs, and fail where they may not write.
 * Paths that pass through two different users' folders are refused outright.
 */
export function actorFor(root: string, owners: Map<number, string>, hostPath: string): Actor {
  if (!runsAsRoot()) return { kind: "self" };
  if (owners.size === 0) return { kind: "self" };
  const shown = (path: string) => path.slice(root === "/" ? 0 : root.length) || "/";
  if (owners.size > 1) {
    const list = [...owners].map(([uid, path]) => `${shown(path)} (uid ${uid})`).join(" and ");
    throw errors.unsafePath(hostPath, `its path runs through folders of different users: ${list}; tend writes into a user's folder only as that user`);
  }
  const [uid] = owners.keys();
  const entry = lookupUser(String(uid), root === "/" ? undefined : root);
  return { kind: "user", uid: uid!, gid: entry?.gid ?? uid!, name: entry?.name ?? `uid ${uid}` };
}

/** Whether tend runs as root (asked once: it cannot change). */
export function runsAsRoot(): boolean {
  return (rootness ??= process.getuid?.() === 0);
}
let rootness: boolean | undefined;
