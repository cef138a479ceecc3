import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { nameServiceEntry } from "./name-service.js";

export interface PasswdEntry {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

/** A database file's rows, with the file's identity when it was read. */
interface ReadDb {
  stamp: string;
  rows: string[][];
}

/**
 * Each database file as last read, kept while its inode, size, change and modification times
 * stay the same: a spec of many Files with owners looks up one file per owner, and `useradd`
 * (a package's install script) replaces the file, which changes its stamp.
 */
const readDbs = new Map<string, ReadDb>();

/** The file's rows, or undefined when it cannot be read (missing, a folder, closed to this user). */
function readRows(path: string): string[][] | undefined {
  try {
    const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
    if (!stats?.isFile()) return undefined;
    const stamp = `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
    const known = readDbs.get(path);
    if (known?.stamp === stamp) return known.rows;
    const rows = readFileSync(path, "utf8")
      .split("\n")
      .filter((line) => line && !line.startsWith("#"))
      .map((line) => line.split(":"));
    readDbs.set(path, { stamp, rows });
    return rows;
  } catch {
    return undefined;
  }
}

function readDb(file: string, root: string | undefined): string[][] {
  for (const path of root ? [join(root, file), file] : [file]) {
    const rows = readRows(path);
    if (rows) return rows;
  }
  return [];
}

/**
 * A user from the password database, by name or numeric id: inside `root` first when given (an
 * image's users are its own files); on the live host, /etc/passwd and then the name service
 * (LDAP, SSSD), as `chown` would find them.
 */
export function lookupUser(nameOrId: string, root?: string): PasswdEntry | undefined {
  const row = readDb("/etc/passwd", root).find((r) => r[0] === nameOrId || r[2] === nameOrId) ?? (root ? undefined : nameServiceEntry("passwd", nameOrId));
  return row && { name: row[0]!, uid: Number(row[2]), gid: Number(row[3]), home: row[5] ?? "/" };
}

/**
 * The home folders in the password database's file (inside `root` first when given), but `/`:
 * where a user's run may write. Users only the name service knows (LDAP) are not listed.
 */
export function passwdHomes(root?: string): string[] {
  return [...new Set(readDb("/etc/passwd", root).map((r) => r[5] ?? "/"))].filter((home) => home.startsWith("/") && home !== "/");
}

/** A group id by name or numeric id, from the image's /etc/group under `root`, or the live host's and then its name service. */
export function lookupGroup(nameOrId: string, root?: string): number | undefined {
  if (/^[0-9]+$/.test(nameOrId)) return Number(nameOrId);
  const row = readDb("/etc/group", root).find((r) => r[0] === nameOrId) ?? (root ? undefined : nameServiceEntry("group", nameOrId));
  return row ? Number(row[2]) : undefined;
}
