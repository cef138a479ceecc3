import { lstat, readFile, readlink, readdir, stat } from "node:fs/promises";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import type { HostFileWriter } from "../contract/context.js";
import type { Scope } from "../contract/host.js";
import { errors } from "../errors/catalogue.js";
import { lookupGroup, lookupUser } from "../host/passwd.js";
import { performFileOperation, type FileOperation } from "./file-operation.js";
import type { Ownership } from "./atomic-write.js";

async function orNull<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EINVAL") return null;
    throw error;
  }
}

/**
 * The host's files as tend sees them: host paths mapped under `--root`, and, as root acting for
 * a user, every write inside that user's home done by a child running as the user.
 */
export class LocalHostFiles implements HostFileWriter {
  constructor(
    private readonly root: string | undefined,
    private readonly scope: Scope,
  ) {}

  real(path: string): string {
    if (!path.startsWith("/")) throw errors.unsafePath(path, "it is not an absolute path");
    return this.root ? join(this.root, path) : path;
  }

  async exists(path: string): Promise<boolean> {
    return (await orNull(lstat(this.real(path)))) !== null;
  }

  async isDirectory(path: string): Promise<boolean> {
    return (await orNull(stat(this.real(path))))?.isDirectory() ?? false;
  }

  async readFile(path: string): Promise<string | null> {
    const info = await orNull(lstat(this.real(path)));
    if (!info || !info.isFile()) return null;
    return orNull(readFile(this.real(path), "utf8"));
  }

  async readLink(path: string): Promise<string | null> {
    return orNull(readlink(this.real(path)));
  }

  async readDir(path: string): Promise<string[] | null> {
    const names = await orNull(readdir(this.real(path)));
    return names && names.sort();
  }

  /** Owner for a new file: explicit names, else the scope's user in a user scope, else root. */
  ownership(owner?: string, group?: string): Ownership {
    const result: Ownership = {};
    if (owner) {
      const entry = lookupUser(owner, this.root);
      if (!entry) throw errors.usage(`unknown user \`${owner}\``, { field: "owner" });
      result.uid = entry.uid;
      result.gid = entry.gid;
    } else if (this.scope.kind === "user") {
      result.uid = this.scope.uid;
      result.gid = this.scope.gid;
    }
    if (group) {
      const gid = lookupGroup(group, this.root);
      if (gid === undefined) throw errors.usage(`unknown group \`${group}\``, { field: "group" });
      result.gid = gid;
    }
    return result;
  }

  async writeFile(path: string, content: string, options: { mode?: number; owner?: string; group?: string } = {}): Promise<void> {
    await this.perform(path, { op: "write", path: this.real(path), content, mode: options.mode ?? 0o644, owner: this.ownership(options.owner, options.group) });
  }

  async symlink(path: string, target: string): Promise<void> {
    await this.perform(path, { op: "symlink", path: this.real(path), target, owner: this.ownership() });
  }

  async remove(path: string): Promise<void> {
    await this.perform(path, { op: "remove", path: this.real(path) });
  }

  async removeDir(path: string, ephemeral: string[]): Promise<void> {
    await this.perform(path, { op: "rmdir", path: this.real(path), ephemeral });
  }

  async mkdir(path: string, options: { mode?: number; owner?: string; group?: string } = {}): Promise<void> {
    await this.perform(path, { op: "mkdir", path: this.real(path), mode: options.mode ?? 0o755, owner: this.ownership(options.owner, options.group) });
  }

  private inUserHome(path: string): boolean {
    return this.scope.kind === "user" && (path === this.scope.home || path.startsWith(`${this.scope.home}/`));
  }

  private async perform(hostPath: string, operation: FileOperation): Promise<void> {
    const scope = this.scope;
    if (scope.kind === "user" && this.inUserHome(hostPath) && process.getuid?.() === 0 && scope.uid !== 0) {
      await runAsUser(scope.uid, scope.gid, [operation]);
      return;
    }
    await performFileOperation(operation);
  }
}

function runAsUser(uid: number, gid: number, operations: FileOperation[]): Promise<void> {
  const script = fileURLToPath(new URL("./user-writer-main.js", import.meta.url));
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [script], { uid, gid, timeout: 30_000 }, (error, _stdout, stderr) => {
      if (error) reject(errors.unsafePath(operations[0]?.path ?? "?", `writing as uid ${uid} failed: ${stderr.trim() || error.message}`));
      else resolve();
    });
    child.stdin?.end(JSON.stringify(operations));
  });
}
