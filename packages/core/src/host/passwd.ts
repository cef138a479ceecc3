import { readFileSync } from "node:fs";
import { join } from "node:path";
import { nameServiceEntry } from "./name-service.js";

export interface PasswdEntry {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

function readDb(file: string, root: string | undefined): string[][] {
  for (const path of root ? [join(root, file), file] : [file]) {
    try {
      return readFileSync(path, "utf8")
        .split("\n")
        .filter((line) => line && !line.startsWith("#"))
        .map((line) => line.split(":"));
    } catch {
      // try the next place
    }
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

/** A group id by name or numeric id, from the image's /etc/group under `root`, or the live host's and then its name service. */
export function lookupGroup(nameOrId: string, root?: string): number | undefined {
  if (/^[0-9]+$/.test(nameOrId)) return Number(nameOrId);
  const row = readDb("/etc/group", root).find((r) => r[0] === nameOrId) ?? (root ? undefined : nameServiceEntry("group", nameOrId));
  return row ? Number(row[2]) : undefined;
}
