/**
 * Host paths are absolute and normal: no empty, `.` or `..` parts and no trailing slash. Every
 * path tend writes, reads for drift or finds in its state must be one, so two spellings of one
 * file (`/etc/app.conf`, `//etc//app.conf`) can never be two resources.
 */
export const NORMAL_PATH_PATTERN = /^\/(?:(?!\.\.?(?:\/|$))[^/]+(?:\/(?!\.\.?(?:\/|$))[^/]+)*)?$/;

export function isNormalHostPath(path: string): boolean {
  return !path.includes("\0") && NORMAL_PATH_PATTERN.test(path);
}

/** The parts of an absolute path, with `.` dropped and `..` taken back (never above `/`). */
export function hostPathParts(path: string): string[] {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return parts;
}

/** The folders a normal host path lies in, outermost first, `/` left out: `/etc/app/x` gives `/etc`, `/etc/app`. */
export function foldersAbove(path: string): string[] {
  const folders: string[] = [];
  for (let slash = path.indexOf("/", 1); slash !== -1; slash = path.indexOf("/", slash + 1)) folders.push(path.slice(0, slash));
  return folders;
}
