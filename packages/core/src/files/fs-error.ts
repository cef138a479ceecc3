import { errors, moreErrors } from "../errors/catalogue.js";
import { TendError } from "../errors/tend-error.js";

/** Why root is refused: "sudo tend" would change nothing. */
const REFUSED_TO_ROOT =
  "tend runs as root here, so the file or its folder is protected otherwise: immutable or append-only (lsattr shows it, chattr -i lifts it), or refused by a security module (SELinux, AppArmor) or the mount";

/**
 * A failed file-system call as a TendError naming the path and what tend was doing: a full
 * disk, a read-only file system or a refused permission is something the admin meets and can
 * fix, never a bug in tend. A TendError passes through unchanged.
 */
export function fsError(error: unknown, verb: string, path: string): TendError {
  if (TendError.isInstance(error)) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOSPC":
    case "EDQUOT":
      return moreErrors.diskFull(verb, path, { cause: error });
    case "EROFS":
      return moreErrors.readOnly(verb, path, { cause: error });
    case "EACCES":
    case "EPERM":
      return moreErrors.permission(verb, path, { cause: error, ...(process.getuid?.() === 0 ? { hint: REFUSED_TO_ROOT } : {}) });
    case "ELOOP":
      return errors.unsafePath(path, "it is a symlink tend did not make, and tend never goes through one", { cause: error, action: verb });
    case "ENOTDIR":
      return errors.unsafePath(path, "a part of it is a file where a folder should be", { cause: error, action: verb });
    default:
      return moreErrors.io(verb, path, code ?? (error instanceof Error ? error.message : String(error)), { cause: error });
  }
}
