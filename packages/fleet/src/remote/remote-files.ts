import { isUtf8 } from "node:buffer";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { posix } from "node:path";
import { contentText, errors, firstShortfall, TendError, type FileAttributes, type FileOperation, type FolderRoom, type HostFileAccess, type Ownership, type PathContent, type RoomNeed, type Shortfall } from "@tend/core";
import { q, SSH_FAILED, type ShellChannel, type ShellLibrary } from "../ssh/ssh-connection.js";
import { AGAIN, fileAttributes, hexBytes, parseReads, posixCksum, type BatchKind, type ReadRecord } from "./read-records.js";

/** The sh library every file script runs with (see host-files.sh). */
export const HOST_FILES_LIB = readFileSync(new URL("./host-files.sh", import.meta.url), "utf8");

/** The library as channels load it: a session once, a shell of its own per script (its text in $TEND_FILES_LIB). */
export const HOST_FILES: ShellLibrary = { name: "TEND_FILES_LIB", text: HOST_FILES_LIB };

/** Users and groups of the target, from its own databases (read at detection). */
export interface HostUsers {
  users: Map<string, { uid: number; gid: number }>;
  groups: Map<string, number>;
}

export function parseUserDatabases(passwd: string, group: string): HostUsers {
  const users = new Map<string, { uid: number; gid: number }>();
  for (const line of passwd.split("\n")) {
    const [name, , uid, gid] = line.split(":");
    if (name && uid !== undefined && gid !== undefined && !users.has(name)) users.set(name, { uid: Number(uid), gid: Number(gid) });
  }
  const groups = new Map<string, number>();
  for (const line of group.split("\n")) {
    const [name, , gid] = line.split(":");
    if (name && gid !== undefined && !groups.has(name)) groups.set(name, Number(gid));
  }
  return { users, groups };
}

const PROCESS_TAG = randomBytes(4).toString("hex");
let counter = 0;

/** A temp name beside `base`, the shape core's cleanup knows: `.<base>.tend-<pid>-<hex>`. */
function tempName(base: string): string {
  return `${tempPrefix(base)}${process.pid}-${PROCESS_TAG}${(counter++).toString(16)}`;
}

function tempPrefix(base: string): string {
  return `.${base.slice(0, 200)}.tend-`;
}

/** dirname and basename of an absolute, normal host path; TEND_UNSAFE_PATH otherwise. */
function split(path: string): { dir: string; name: string } {
  const parts = path.split("/").filter((p) => p !== "");
  if (!path.startsWith("/") || parts.length === 0 || parts.some((p) => p === "." || p === "..") || path.includes("\0")) {
    throw new TendError("TEND_UNSAFE_PATH", `${JSON.stringify(path)} is not an absolute, normal path`, { hint: "Paths are absolute, without `.` or `..` parts" });
  }
  const name = parts.pop()!;
  return { dir: `/${parts.join("/")}`, name };
}

const UNSAFE: Record<string, string> = {
  link: "a folder on the way became a symlink",
  moved: "a folder on the way was swapped while tend stepped into it",
  loop: "symlinks on the way loop",
  dangling: "a symlink on the way points at a missing path with `..` in it",
  gone: "a folder on the way vanished",
  notdir: "a part of the path is not a folder",
  users: "the way runs through folders of more than one non-root user",
  owner: "the file would be given to another user than the one who owns its folder",
  "target-link-folder": "a symlink is where the folder goes",
  "target-file-folder": "a file is where the folder goes",
  "target-dir-or-device": "a folder or device is where the link goes",
  "now-file": "it is now a file, not the folder tend made",
  "now-dir": "it is now a folder",
  "now-other": "it is now a device or socket",
  "now-not-folder": "it is no longer a folder",
  "target-dir": "a folder is at the target",
  "target-other": "a device or socket is at the target",
};

/**
 * What a write or deletion finds at its target on the host (see host-files.sh's `holds`): `-`
 * for no check, `absent`, or cksum's CRC and size of the text's bytes. Text that held bytes
 * which are not UTF-8 when read (U+FFFD) is not checked: its bytes on the host are not known.
 */
function expectation(expected: string | null | undefined): string {
  if (expected === null) return "absent";
  if (expected === undefined || expected.includes("\uFFFD")) return "-";
  const bytes = Buffer.from(expected, "utf8");
  return `${posixCksum(bytes)}:${bytes.length}`;
}

const VERBS: Record<FileOperation["op"], string> = { write: "write", symlink: "link", mkdir: "make the folder", remove: "delete", rmdir: "delete the folder", "clean-temps": "clean up beside", append: "append to", attributes: "change the mode of" };

function failure(operation: FileOperation, kind: string, detail: string, host: string): TendError {
  const what = `cannot ${VERBS[operation.op]} ${operation.path} on ${host}`;
  if (kind === "target-link") return new TendError("TEND_UNSAFE_PATH", `${what}: a symlink is at the target (-> ${detail}); tend never writes through a link it did not make`, { hint: "Remove the link, or point the resource at the real path" });
  if (kind in UNSAFE || kind === "now-link") {
    const why = kind === "now-link" ? `it is now a symlink, not the ${operation.op === "attributes" && operation.kind === "directory" ? "folder tend made" : "file tend wrote"}` : UNSAFE[kind];
    return new TendError("TEND_UNSAFE_PATH", `${what}: ${why}`, { hint: "Check the path on the host; tend refuses to follow it" });
  }
  if (kind === "batch") return new TendError("TEND_DISK_FULL", `${what}: not written, since the rest of its batch could not be (out of space)`, { hint: "Free space on the host and run apply again" });
  if (kind === "as-user") return new TendError("TEND_PERMISSION", `${what}: could not act as uid ${detail} (sudo -n or su)`, { hint: "tend writes in a user's folder as that user: allow root to run sh as them" });
  if (kind === "absent") return new TendError("TEND_IO", `${what}: its folder is missing`);
  if (kind === "changed") return errors.changedMeanwhile(`${operation.path} on ${host}`, operation.op === "remove" ? "delete" : operation.op === "attributes" ? "change the mode of" : "overwrite");
  if (/No space|quota/i.test(detail)) return new TendError("TEND_DISK_FULL", `${what}: ${detail}`, { hint: "Free space on the host and run apply again" });
  if (/Read-only/i.test(detail)) return new TendError("TEND_READ_ONLY", `${what}: ${detail}`, { hint: "The file system is read-only on the host" });
  if (/Permission denied|Operation not permitted/i.test(detail)) return new TendError("TEND_PERMISSION", `${what}: ${detail}`, { hint: "tend needs root on the host (a root login, or sudo -n)" });
  return new TendError("TEND_IO", `${what}: ${detail || kind}`);
}

/** A file's or folder's mode and owner as read with it, when its modes line added up. */
function attributesOf(record: ReadRecord): { attributes?: FileAttributes } {
  const attributes = fileAttributes(record);
  return attributes ? { attributes } : {};
}

/** Bytes as a printf format that prints exactly them: ASCII as itself, `%` doubled, anything else as `\\ooo`. */
function printfEscapes(bytes: Uint8Array): string {
  let format = "";
  for (const byte of bytes) {
    if (byte === 0x25) format += "%%";
    else if (byte >= 0x20 && byte < 0x7f && byte !== 0x5c) format += String.fromCharCode(byte);
    else format += `\\${byte.toString(8).padStart(3, "0")}`;
  }
  return format;
}

/** A record's bytes (a file's content, a link's target) as text. */
function text(record: ReadRecord): string {
  return (record.bytes ?? hexBytes(record.data)).toString("utf8");
}

/**
 * A host's files over a channel: each call is one sh script (one line per operation, run with the
 * library, which a session loads once) in one round trip; a batch of writes is staged in their
 * folders, made durable, then renamed in order, all in that one script. The reads asked for in
 * one turn share a script, their files read by one od (split by cksum's sizes, each part's CRC
 * checked), their links by one readlink, their times by one stat. Confinement is done on the
 * target (see host-files.sh).
 */
export class RemoteHostFiles implements HostFileAccess {
  readonly root = "/";

  constructor(
    private readonly channel: ShellChannel,
    private readonly host: string,
    private readonly users: HostUsers,
    /** Where `/` is on the target: `/`, except in tests (a temp folder). */
    private readonly targetRoot = "/",
  ) {}

  real(path: string): string {
    return path;
  }

  forgetFolders(): void {
    // Each script resolves its paths afresh.
  }

  /** What reads this host may batch: a kind whose batch did not add up once is read one by one from then on. */
  private readonly batching = new Set<BatchKind>(["f", "l", "m", "d"]);

  private async run(body: string, batching = ""): Promise<string> {
    const result = await this.channel.script(`hf_begin ${q(this.targetRoot)}${batching ? ` ${batching}` : ""}\n${body}`, undefined, HOST_FILES);
    if (result.exitCode === SSH_FAILED || (result.exitCode !== 0 && result.stdout === "")) {
      throw new TendError("TEND_FLEET_CONNECTION", `${this.host}: a file script failed (exit ${result.exitCode}): ${result.stderr.trim().split("\n").slice(-3).join(" ")}`, {
        hint: "Run the command again once the host is reachable: the state on the host lets the rerun converge",
        resource: this.host,
      });
    }
    return result.stdout;
  }

  /** Reads waiting for the next flush: those asked for in the same turn share one round trip. */
  private queued: { calls: string[]; resolve: (records: ReadRecord[]) => void; reject: (error: unknown) => void }[] = [];

  /** Runs read calls (`i_KIND IDX PATH`, IDX from 0); the records by index. */
  private reads(calls: string[]): Promise<ReadRecord[]> {
    return new Promise((resolve, reject) => {
      if (this.queued.length === 0) setImmediate(() => void this.flush());
      this.queued.push({ calls, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queued;
    this.queued = [];
    const lines: string[] = [];
    const offsets = batch.map((entry) => {
      const offset = lines.length;
      entry.calls.forEach((call, i) => lines.push(call.replace(/^(i_[a-z]+) \d+ /, `$1 ${offset + i} `)));
      return offset;
    });
    let records: ReadRecord[];
    try {
      records = await this.readScript(lines, [...this.batching].join(""));
      // What a batch could not answer, read again one by one (a second round trip, rare).
      const again = lines.filter((_, i) => records[i]?.kind === AGAIN);
      if (again.length > 0) {
        const second = await this.readScript(again, "");
        second.forEach((record, i) => {
          if (record) records[i] = record;
        });
      }
    } catch (error) {
      for (const entry of batch) entry.reject(error);
      return;
    }
    batch.forEach((entry, b) => entry.resolve(entry.calls.map((_, i) => records[offsets[b]! + i] ?? { kind: "error", detail: "no answer", data: [] })));
  }

  /** One read script (its calls, then i_end for what they batched); the records by index. */
  private async readScript(calls: string[], batching: string): Promise<ReadRecord[]> {
    const { records, failed } = parseReads(await this.run(`${calls.join("\n")}\ni_end`, batching));
    for (const kind of failed) this.batching.delete(kind);
    return records;
  }

  async inspectAll(paths: readonly string[]): Promise<PathContent[]> {
    if (paths.length === 0) return [];
    const records = await this.reads(paths.map((p, i) => `i_inspect ${i} ${q(p)}`));
    return records.map((r, i) => {
      switch (r.kind) {
        case "absent":
          return { kind: "absent" };
        case "file": {
          const bytes = r.bytes ?? hexBytes(r.data);
          return { kind: "file", content: bytes.toString("utf8"), ...(isUtf8(bytes) ? {} : { bytes }), ...attributesOf(r) };
        }
        case "symlink":
          return { kind: "symlink", target: r.bytes ? text(r) : text(r).replace(/\n$/, "") };
        case "directory":
          return { kind: "directory", ...attributesOf(r) };
        case "other":
          return { kind: "other" };
        default:
          throw new TendError("TEND_UNSAFE_PATH", `cannot read ${paths[i]} on ${this.host}: ${UNSAFE[r.detail] ?? r.detail}`, { hint: "Check the path on the host; tend refuses to follow it" });
      }
    });
  }

  /** Every folder's room read in one round trip (one stat of their devices, one of their file systems). */
  async shortfall(needs: readonly RoomNeed[]): Promise<Shortfall | undefined> {
    const folders = [...new Set(needs.map((need) => posix.dirname(need.path)))];
    if (folders.length === 0) return undefined;
    const records = await this.reads(folders.map((folder, i) => `i_room ${i} ${q(folder)}`));
    const rooms = new Map<string, FolderRoom>();
    records.forEach((record, i) => {
      if (record.kind !== "room") return;
      const [device, block, freeBlocks, freeFiles, files] = record.detail.split(" ").map(Number) as [number, number, number, number, number];
      rooms.set(folders[i]!, { device: String(device), block, freeBytes: freeBlocks * block, freeFiles: files > 0 ? freeFiles : null });
    });
    return firstShortfall(needs, (folder) => rooms.get(folder));
  }

  async exists(path: string): Promise<boolean> {
    const [r] = await this.reads([`i_exists 0 ${q(path)}`]);
    return r!.kind === "yes";
  }

  async isDirectory(path: string): Promise<boolean> {
    const [r] = await this.reads([`i_isdir 0 ${q(path)}`]);
    return r!.kind === "yes";
  }

  /** Whole seconds (what POSIX tools give): a change within the second it started is not seen as newer. */
  async modifiedAt(path: string): Promise<number | null> {
    const [r] = await this.reads([`i_mtime 0 ${q(path)}`]);
    return r!.kind === "mtime" ? Number(r!.detail) * 1000 : null;
  }

  async readFile(path: string): Promise<string | null> {
    const [found] = await this.inspectAll([path]);
    return found!.kind === "file" ? found!.content : null;
  }

  async readLink(path: string): Promise<string | null> {
    const [found] = await this.inspectAll([path]);
    return found!.kind === "symlink" ? found!.target : null;
  }

  async readDir(path: string): Promise<string[] | null> {
    const [r] = await this.reads([`i_list 0 ${q(path)}`]);
    if (r!.kind !== "list") return null;
    return r!.data.filter((l) => l.startsWith("=")).map((l) => l.slice(1));
  }

  ownership(owner?: string, group?: string): Ownership {
    const result: Ownership = {};
    if (owner) {
      const entry = findUser(this.users, owner);
      if (!entry) throw new TendError("TEND_USAGE", `unknown user \`${owner}\` on ${this.host}`, { field: "owner" });
      result.uid = entry.uid;
      result.gid = entry.gid;
    }
    if (group) {
      const gid = findGroup(this.users, group);
      if (gid === undefined) throw new TendError("TEND_USAGE", `unknown group \`${group}\` on ${this.host}`, { field: "group" });
      result.gid = gid;
    }
    return result;
  }

  /** The script line for one operation. */
  private line(index: number, operation: FileOperation): string {
    const { dir, name } = split(operation.path);
    const id = (n: number | undefined) => (n === undefined ? "-" : String(n));
    const head = (kind: string, own: string) => `op ${index} ${kind} ${q(dir)} ${own}`;
    switch (operation.op) {
      case "write": {
        // Bytes that are not UTF-8 cannot ride in the script's text: they go as printf's octal escapes.
        const content = operation.content instanceof Uint8Array && !isUtf8(operation.content) ? `${q(printfEscapes(operation.content))} bytes` : q(contentText(operation.content));
        return `${head("write", id(operation.owner?.uid))} ${q(name)} ${q(tempName(name))} ${operation.mode.toString(8)} ${id(operation.owner?.uid)} ${id(operation.owner?.gid)} ${expectation(operation.expected)} ${content}`;
      }
      case "symlink":
        return `${head("symlink", id(operation.owner?.uid))} ${q(name)} ${q(tempName(name))} ${id(operation.owner?.uid)} ${id(operation.owner?.gid)} ${expectation(operation.expected)} ${q(operation.target)}`;
      case "mkdir":
        return `${head("mkdir", id(operation.owner?.uid))} ${q(name)} ${operation.mode.toString(8)} ${id(operation.owner?.uid)} ${id(operation.owner?.gid)}`;
      case "remove":
        return `${head("remove", "-")} ${q(name)} ${operation.kind} ${expectation(operation.expected)}`;
      case "rmdir":
        return `${head("rmdir", "-")} ${q(name)} ${operation.ephemeral.map(q).join(" ")}`;
      case "clean-temps":
        return `${head("clean", "-")} ${q(tempPrefix(name))}`;
      case "append":
        return `${head("append", "-")} ${q(name)} ${operation.mode.toString(8)} ${q(contentText(operation.content))}`;
      case "attributes":
        return `${head("attrs", id(operation.owner?.uid))} ${q(name)} ${operation.kind === "directory" ? "dir" : "file"} ${operation.mode.toString(8)} ${id(operation.owner?.uid)} ${id(operation.owner?.gid)} ${expectation(operation.expected)}`;
    }
  }

  async perform(operations: FileOperation[]): Promise<(TendError | null)[]> {
    if (operations.length === 0) return [];
    const results: (TendError | null | undefined)[] = operations.map(() => undefined);
    const lines: string[] = [];
    operations.forEach((operation, index) => {
      try {
        lines.push(this.line(index, operation));
      } catch (error) {
        results[index] = error as TendError;
      }
    });
    lines.push("settle");
    const out = await this.run(lines.join("\n"));
    for (const line of out.split("\n")) {
      const m = /^(\d+)\t(ok|fail)(?:\t([^\t]*)\t?(.*))?$/.exec(line);
      if (!m) continue;
      const index = Number(m[1]);
      const operation = operations[index];
      if (!operation || results[index] instanceof TendError) continue;
      results[index] = m[2] === "ok" ? null : failure(operation, m[3] ?? "", m[4] ?? "", this.host);
    }
    return results.map((r, i) => (r === undefined ? new TendError("TEND_FLEET_CONNECTION", `${this.host}: no answer for ${VERBS[operations[i]!.op]} ${operations[i]!.path}`, { resource: this.host }) : r));
  }

  private async performOne(operation: FileOperation): Promise<void> {
    const [failed] = await this.perform([operation]);
    if (failed) throw failed;
  }

  async writeFile(path: string, content: string, options: { mode?: number; owner?: string; group?: string } = {}): Promise<void> {
    await this.performOne({ op: "write", path, content, mode: options.mode ?? 0o644, owner: this.ownership(options.owner, options.group) });
  }

  async symlink(path: string, target: string): Promise<void> {
    await this.performOne({ op: "symlink", path, target, owner: this.ownership() });
  }

  async remove(path: string): Promise<void> {
    const [found] = await this.inspectAll([path]);
    if (found!.kind === "absent") return;
    await this.performOne({ op: "remove", path, kind: found!.kind === "symlink" ? "symlink" : "file" });
  }

  async mkdir(path: string, options: { mode?: number; owner?: string; group?: string } = {}): Promise<void> {
    await this.performOne({ op: "mkdir", path, mode: options.mode ?? 0o755, owner: this.ownership(options.owner, options.group) });
  }
}

/** A user of the target by name, or by uid when given digits. */
export function findUser(users: HostUsers, owner: string): { uid: number; gid: number } | undefined {
  return users.users.get(owner) ?? numeric(owner, (id) => [...users.users.values()].find((u) => u.uid === id));
}

/** A group id of the target by name; digits are the id itself. */
export function findGroup(users: HostUsers, group: string): number | undefined {
  return users.groups.get(group) ?? numeric(group, (id) => id);
}

function numeric<T>(text: string, find: (id: number) => T | undefined): T | undefined {
  return /^\d+$/.test(text) ? find(Number(text)) : undefined;
}
