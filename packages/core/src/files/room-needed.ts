import { statfsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";

/** What an apply is about to put at a host path: a file's bytes (0 for a link), or a folder. */
export interface RoomNeed {
  path: string;
  bytes: number;
}

/** A file system without the room an apply needs there. */
export interface Shortfall {
  /** The first path the apply would write on it. */
  path: string;
  needBytes: number;
  freeBytes: number;
  needFiles: number;
  /** Free inodes; null where the file system sets no limit (btrfs, for one, reports 0 of 0). */
  freeFiles: number | null;
}

/** The room on the file system a folder is on, as a host reports it. */
export interface FolderRoom {
  /** Names the file system: folders with the same one share its room. */
  device: string;
  /** Its block size: a file takes whole blocks. */
  block: number;
  freeBytes: number;
  /** Free inodes; null where the file system sets no limit. */
  freeFiles: number | null;
}

/**
 * The first file system that lacks the room for `needs`, or undefined when each has it. Every
 * file an apply writes is staged whole beside its target before any is renamed over the old one,
 * so each needs its full size (in whole blocks) and an inode, whatever it replaces. `roomOf`
 * gives the room of each need's folder (host path); a folder it cannot tell (undefined) is not
 * counted, and its writes meet the disk as they are.
 */
export function firstShortfall(needs: readonly RoomNeed[], roomOf: (hostDir: string) => FolderRoom | undefined): Shortfall | undefined {
  const byDevice = new Map<string, FolderRoom & { path: string; bytes: number; files: number }>();
  for (const need of needs) {
    const room = roomOf(dirname(need.path));
    if (!room) continue;
    let device = byDevice.get(room.device);
    if (!device) byDevice.set(room.device, (device = { ...room, block: room.block || 4096, path: need.path, bytes: 0, files: 0 }));
    device.bytes += Math.ceil(need.bytes / device.block) * device.block;
    device.files += 1;
  }
  for (const device of byDevice.values()) {
    if (device.bytes > device.freeBytes || (device.freeFiles !== null && device.files > device.freeFiles)) {
      return { path: device.path, needBytes: device.bytes, freeBytes: device.freeBytes, needFiles: device.files, freeFiles: device.freeFiles };
    }
  }
  return undefined;
}

/**
 * {@link firstShortfall} on this machine, beneath `root`: one `stat` per folder and one `statfs`
 * per file system; a folder not made yet counts on the file system of the nearest one that is.
 */
export function shortfall(root: string, needs: readonly RoomNeed[]): Shortfall | undefined {
  const byFolder = new Map<string, FolderRoom>();
  const byNumber = new Map<number, FolderRoom>();
  const roomOf = (hostDir: string): FolderRoom => {
    const known = byFolder.get(hostDir);
    if (known) return known;
    const real = join(root, hostDir);
    const info = statOrNull(real) ?? (hostDir === "/" ? statSync(root) : null);
    let room: FolderRoom;
    if (info?.isDirectory()) {
      const found = byNumber.get(info.dev);
      if (found) room = found;
      else {
        const fs = statfsSync(hostDir === "/" ? root : real);
        room = { device: String(info.dev), block: fs.bsize, freeBytes: fs.bavail * fs.bsize, freeFiles: fs.files > 0 ? fs.ffree : null };
        byNumber.set(info.dev, room);
      }
    } else {
      room = roomOf(dirname(hostDir));
    }
    byFolder.set(hostDir, room);
    return room;
  };
  return firstShortfall(needs, roomOf);
}

function statOrNull(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
