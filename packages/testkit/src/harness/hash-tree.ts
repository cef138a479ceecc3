import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";

/**
 * A sha256 over everything in a folder that can change what an image built from it contains:
 * every entry's relative path and type, and each file's content and executable bit (the only
 * permission git keeps, so a checkout's umask does not change the hash) or each link's target.
 */
export function hashTree(root: string): string {
  const hash = createHash("sha256");
  const walk = (relative: string) => {
    const path = join(root, relative);
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) {
      hash.update(`link ${relative} ${readlinkSync(path)}\0`);
    } else if (stat.isDirectory()) {
      hash.update(`dir ${relative}\0`);
      for (const name of readdirSync(path).sort()) walk(relative === "" ? name : `${relative}/${name}`);
    } else {
      const executable = stat.mode & 0o111 ? "x" : "-";
      hash.update(`file ${relative} ${executable} ${createHash("sha256").update(readFileSync(path)).digest("hex")}\0`);
    }
  };
  walk("");
  return hash.digest("hex");
}
