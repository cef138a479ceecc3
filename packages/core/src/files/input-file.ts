import { accessSync, constants, statSync } from "node:fs";
import { sizeText } from "../output/size-text.js";
import { changeableFile, sudoOwners } from "./root-trust.js";

/**
 * The most a file an admin hands tend (a spec, an inventory) may hold. A spec of 10,000 services
 * is about 2 MB; tend keeps a spec's text, its parse and its resources in memory at once (some
 * 50 bytes for each byte of YAML).
 */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/**
 * What is wrong, before reading it, with a file an admin hands tend as `what` ("spec"): not a
 * regular file (a FIFO would hang the read, a device such as /dev/zero would never end) or
 * bigger than MAX_INPUT_BYTES, or out of reach (a folder on its way closed to this user), or, as
 * root, open to change by another user than root, the user who ran sudo and `alsoTrusted` (see
 * changeableByOthers; "anyone": what it says was trusted when it was first read). A link to a
 * file is followed. Undefined when it may be read; a missing file is left to the read, which
 * names it.
 */
export function inputFileProblem(file: string, what: string, alsoTrusted: readonly number[] | "anyone" = []): { message: string; hint: string } | undefined {
  let info;
  try {
    info = statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "EACCES" || code === "EPERM" ? unreadable(file, what) : undefined;
  }
  const a = /^[aeiou]/.test(what) ? "an" : "a";
  if (info.isDirectory()) return { message: `${file} is a folder, not a ${what} file`, hint: `Pass the ${what} file itself, not its folder` };
  if (!info.isFile()) return { message: `${file} is not a regular file (a device, FIFO or socket); tend reads ${a} ${what} only from a file`, hint: `Write the ${what} to a file and pass that` };
  if (!readable(file)) return unreadable(file, what);
  if (info.size > MAX_INPUT_BYTES) {
    return {
      message: `${file} is ${sizeText(info.size)}; ${a} ${what} file may be at most ${sizeText(MAX_INPUT_BYTES)}`,
      hint: what === "spec" ? "Keep large contents out of the spec: a tend.config.ts can read a File resource's content from a file" : `Split the ${what}`,
    };
  }
  return alsoTrusted === "anyone" ? undefined : changeableByOthers(file, what, alsoTrusted);
}

/**
 * As root, what is wrong with reading `file` as `what`: another user could change it, or a folder
 * above it (as named, and where its links lead), so what root applies would be theirs. The file
 * and its folders must belong to root, or to the user who ran sudo (SUDO_UID: they can be root
 * anyway) or to one of `alsoTrusted`, and be writable by no group or other user, sticky folders
 * such as /tmp excepted: the rule of cron for /etc/cron.d and of OpenSSH for authorized_keys.
 */
function changeableByOthers(file: string, what: string, alsoTrusted: readonly number[]): { message: string; hint: string } | undefined {
  const why = changeableFile(file, [...sudoOwners(), ...alsoTrusted]);
  if (!why) return undefined;
  return {
    message: `refusing to read ${file} as root: ${why}`,
    hint: `Give the ${what} and the folders above it to root, writable by no one else (chown root; chmod go-w), or run tend through sudo as their owner`,
  };
}

/** The problem of a file this user may not read, or reach: said before any read is tried. */
export function unreadable(file: string, what: string): { message: string; hint: string } {
  return { message: `${file} cannot be read: permission denied (the file, or a folder on its way, is closed to this user)`, hint: `Run tend as a user who may read the ${what} (sudo), or open it to yours` };
}

function readable(file: string): boolean {
  try {
    accessSync(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}
