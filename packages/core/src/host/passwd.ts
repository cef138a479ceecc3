import { readFileSync } from "node:fs";
import { join } from "node:path";

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

/** A user from the password database (inside `root` first when given), by name or numeric id. */
export function lookupUser(nameOrId: string, root?: string): PasswdEntry | undefined {
  const row = readDb("/etc/passwd", root).find((r) => r[0] === nameOrId || r[2] === nameOrId);
  return row && { name: row[0]!, uid: Number(row[2]), gid: Number(row[3]), home: row[5] ?? "/" };
}

/** A group id by name or numeric id. */
export function lookupGroup(nameOrId: string, root?: string): number | undefined {
  if (/^[0-9]+$/.test(nameOrId)) return Number(nameOrId);
  const row = readDb("/etc/group", root).find((r) => r[0] === nameOrId);
  return row ? Number(row[2]) : undefined;
}
