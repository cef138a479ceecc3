import type { FileAttributes } from "@tend/core/runtime";

/** One answer of a read script (see host-files.sh): `@IDX TAB KIND [TAB DETAIL]` and its lines. */
export interface ReadRecord {
  kind: string;
  detail: string;
  /** The lines after the record (od's hex lines, a folder's `=name` lines). */
  data: string[];
  /** The bytes, when they came in a batch. */
  bytes?: Buffer;
}

/** What can be batched (host-files.sh's BATCH letters): files, links, modification times, folders' modes. */
export type BatchKind = "f" | "l" | "m" | "d";

/** A modes line (host-files.sh's `modes`): octal permission bits, then as root the uid and gid. */
const MODES_LINE = /^[0-7]{1,4}(?: \d+ \d+)?$/;

/** A file's attributes from its record's modes line; undefined when it has none. */
export function fileAttributes(record: ReadRecord): FileAttributes | undefined {
  if (!MODES_LINE.test(record.detail)) return undefined;
  const [mode, uid, gid] = record.detail.split(" ");
  return uid === undefined ? { mode: parseInt(mode!, 8) } : { mode: parseInt(mode!, 8), uid: Number(uid), gid: Number(gid) };
}

/** A read that a batch could not answer: it is asked again on its own. */
export const AGAIN = "again";

/** od's hex lines as bytes. */
export function hexBytes(lines: string[]): Buffer {
  return Buffer.from(lines.join("").replace(/\s+/g, ""), "hex");
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i += 1) {
    let c = i << 24;
    for (let k = 0; k < 8; k += 1) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    table[i] = c >>> 0;
  }
  return table;
})();

/** POSIX cksum's CRC: the octets, then their count (least significant octet first), complemented. */
export function posixCksum(bytes: Uint8Array): number {
  let crc = 0;
  const step = (octet: number) => {
    crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ octet) & 0xff]!) >>> 0;
  };
  for (const octet of bytes) step(octet);
  for (let n = bytes.length; n > 0; n = Math.floor(n / 256)) step(n % 256);
  return ~crc >>> 0;
}

/**
 * Splits a read script's output into its records by index, each batch's answers put in place.
 * A batch that does not add up (a count, a size or a CRC that differs: a file changed between od
 * and cksum, a path gone, a tool that takes one path only) answers {@link AGAIN} for each of its
 * reads, and its kind is named in `failed`.
 */
export function parseReads(out: string): { records: ReadRecord[]; failed: Set<BatchKind> } {
  const records: ReadRecord[] = [];
  const batches: ReadRecord[] = [];
  let current: ReadRecord | undefined;
  for (const line of out.split("\n")) {
    const m = /^@(\d+|b)\t([a-z]+)(?:\t(.*))?$/.exec(line);
    if (m) {
      current = { kind: m[2]!, detail: m[3] ?? "", data: [] };
      if (m[1] === "b") batches.push(current);
      else records[Number(m[1])] = current;
    } else if (current && line !== "") current.data.push(line);
  }
  const failed = new Set<BatchKind>();
  batches.forEach((batch, i) => {
    const ids = batch.detail.split(" ").map(Number);
    let answers: ReadRecord[] | undefined;
    let kind: BatchKind | undefined;
    if (batch.kind === "files") {
      kind = "f";
      const sums = batches[i + 1]?.kind === "cksum" ? batches[i + 1]!.data : [];
      answers = splitFiles(hexBytes(batch.data), sums, ids.length);
      // Modes that do not add up are left out: the files' bytes still stand, their modes are not compared.
      const modes = batches[i + 2]?.kind === "modes" ? batches[i + 2]!.data : [];
      if (answers && modes.length === answers.length && modes.every((l) => MODES_LINE.test(l))) answers.forEach((answer, k) => (answer.detail = modes[k]!));
    } else if (batch.kind === "links") {
      kind = "l";
      answers = splitLinks(hexBytes(batch.data), ids.length);
    } else if (batch.kind === "dirs") {
      kind = "d";
      answers = batch.data.length === ids.length && batch.data.every((l) => MODES_LINE.test(l)) ? batch.data.map((l) => ({ kind: "directory", detail: l, data: [] })) : undefined;
    } else if (batch.kind === "times") {
      kind = "m";
      answers = batch.data.length === ids.length && batch.data.every((l) => /^-?\d+$/.test(l)) ? batch.data.map((l) => ({ kind: "mtime", detail: l, data: [] })) : undefined;
    }
    if (batch.kind === "rooms") {
      // Not a kind read again one by one: a folder whose room is not known is not counted.
      const rooms = roomAnswers(batch.data, ids.length);
      ids.forEach((id, k) => {
        records[id] = rooms?.[k] ?? { kind: "absent", detail: "", data: [] };
      });
      return;
    }
    if (!kind) return;
    if (!answers) failed.add(kind);
    ids.forEach((id, k) => {
      records[id] = answers?.[k] ?? { kind: AGAIN, detail: "", data: [] };
    });
  });
  return { records, failed };
}

/** The files' bytes by cksum's sizes, each part checked against its CRC; undefined when anything differs. */
function splitFiles(bytes: Buffer, sums: string[], count: number): ReadRecord[] | undefined {
  if (sums.length !== count) return undefined;
  const answers: ReadRecord[] = [];
  let at = 0;
  for (const line of sums) {
    const m = /^(\d+) (\d+)(?: |$)/.exec(line);
    if (!m) return undefined;
    const size = Number(m[2]);
    if (at + size > bytes.length) return undefined;
    const part = bytes.subarray(at, at + size);
    if (posixCksum(part) !== Number(m[1])) return undefined;
    answers.push({ kind: "file", detail: "", data: [], bytes: part });
    at += size;
  }
  return at === bytes.length ? answers : undefined;
}

/** readlink's lines, one per link; undefined when readlink failed (a NUL follows) or a target holds a newline. */
function splitLinks(bytes: Buffer, count: number): ReadRecord[] | undefined {
  if (bytes.includes(0)) return undefined;
  const parts: Buffer[] = [];
  let at = 0;
  for (let nl = bytes.indexOf(10); nl >= 0; nl = bytes.indexOf(10, at)) {
    parts.push(bytes.subarray(at, nl));
    at = nl + 1;
  }
  if (at !== bytes.length || parts.length !== count) return undefined;
  return parts.map((part) => ({ kind: "symlink", detail: "", data: [], bytes: part }));
}

/** stat's device lines, then its file-system lines (block size, free blocks, free inodes, inodes); undefined when they do not add up. */
function roomAnswers(lines: string[], count: number): ReadRecord[] | undefined {
  if (lines.length !== 2 * count) return undefined;
  const devices = lines.slice(0, count);
  const systems = lines.slice(count);
  if (!devices.every((l) => /^\d+$/.test(l)) || !systems.every((l) => /^\d+ \d+ \d+ \d+$/.test(l))) return undefined;
  return devices.map((device, k) => ({ kind: "room", detail: `${device} ${systems[k]}`, data: [] }));
}
