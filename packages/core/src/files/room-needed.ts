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

interface Device {
  /** The first path an apply would write on it. */
  path: string;
  block: number;
  freeBytes: number;
  freeFiles: number | null;
  bytes: number;
  files: number;
}

/**
 * The first file system beneath `root` that lacks the room for `needs`, or undefined when each
 * has it. Every file an apply writes is staged whole beside its target before any is renamed
 * over the old one, so each needs its full size (in whole blocks) and an inode, whatever it
 * replaces. One `stat` per folder and one `statfs` per file system: a folder not made yet counts
 * on the file system of the nearest one that is.
 */
export function shortfall(root: string, needs: readonly RoomNeed[]): Shortfall | undefined {
  const byFolder = new Map<string, Device>();
  const byNumber = new Map<number, Device>();
  const deviceOf = (hostDir: string): Device => {
    const known = byFolder.get(hostDir);
    if (known) return known;
    const real = join(root, hostDir);
    const info = statOrNull(real) ?? (hostDir === "/" ? statSync(root) : null);
    let device: Device;
    if (info?.isDirectory()) {
      const found = byNumber.get(info.dev);
      if (found) device = found;
      else {
        const fs = statfsSync(hostDir === "/" ? root : real);
        device = { path: "", block: fs.bsize || 4096, freeBytes: fs.bavail * fs.bsize, freeFiles: fs.files > 0 ? fs.ffree : null, bytes: 0, files: 0 };
        byNumber.set(info.dev, device);
      }
    } else {
      device = deviceOf(dirname(hostDir));
    }
    byFolder.set(hostDir, device);
    return device;
  };
  for (const need of needs) {
    const device = deviceOf(dirname(need.path));
    if (!device.path) device.path = need.path;
    device.bytes += Math.ceil(need.bytes / device.block) * device.block;
    device.files += 1;
  }
  for (const device of byNumber.values()) {
    if (device.bytes > device.freeBytes || (device.freeFiles !== null && device.files > device.freeFiles)) {
      return { path: device.path, needBytes: device.bytes, freeBytes: device.freeBytes, needFiles: device.files, freeFiles: device.freeFiles };
    }
  }
  return undefined;
}

function statOrNull(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
