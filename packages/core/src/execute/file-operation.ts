import { lstat, readdir, rm, rmdir, unlink } from "node:fs/promises";
import { ensureDir, writeFileAtomic, writeSymlinkAtomic, type Ownership } from "./atomic-write.js";

/** One change to the file system, in real paths: what the writer (ours or a user's child) does. */
export type FileOperation =
  | { op: "write"; path: string; content: string; mode: number; owner?: Ownership }
  | { op: "symlink"; path: string; target: string; owner?: Ownership }
  | { op: "mkdir"; path: string; mode: number; owner?: Ownership }
  | { op: "remove"; path: string }
  | { op: "rmdir"; path: string; ephemeral: string[] };

export async function performFileOperation(operation: FileOperation): Promise<void> {
  switch (operation.op) {
    case "write":
      return writeFileAtomic(operation.path, operation.content, operation.mode, operation.owner);
    case "symlink":
      return writeSymlinkAtomic(operation.path, operation.target, operation.owner);
    case "mkdir":
      return ensureDir(operation.path, operation.mode, operation.owner);
    case "remove":
      return unlink(operation.path).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      });
    case "rmdir": {
      const entries = await readdir(operation.path).catch(() => null);
      if (entries === null) return;
      for (const name of entries) {
        if (!operation.ephemeral.includes(name)) return; // something not ours is inside: keep it
      }
      for (const name of entries) await rm(`${operation.path}/${name}`, { recursive: true, force: true });
      const stat = await lstat(operation.path).catch(() => null);
      if (stat?.isDirectory()) await rmdir(operation.path);
    }
  }
}
