import { statfsSync } from "node:fs";
import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { firstShortfall, shortfall, type FolderRoom } from "./room-needed.js";

describe("shortfall", () => {
  it("finds room where there is some, counting a folder not made yet on the nearest one that is", async () => {
    const root = await mkdtemp(join(tmpdir(), "tend-room-"));
    await mkdir(join(root, "etc"));
    expect(shortfall(root, [{ path: "/etc/app.conf", bytes: 100 }, { path: "/opt/new/deep/bin/run", bytes: 5000 }])).toBeUndefined();
  });

  it("names the first path on a file system short of bytes, rounding each file up to whole blocks", async () => {
    const root = await mkdtemp(join(tmpdir(), "tend-room-"));
    const { bavail, bsize } = statfsSync(root);
    const free = bavail * bsize;
    const short = shortfall(root, [{ path: "/etc/app.conf", bytes: 1 }, { path: "/etc/huge", bytes: free }]);
    // The free space moves as the machine works: what counts is that the need is whole blocks and over it.
    expect(short).toMatchObject({ path: "/etc/app.conf", needBytes: bsize + Math.ceil(free / bsize) * bsize, needFiles: 2 });
    expect(short!.needBytes).toBeGreaterThan(short!.freeBytes);
    expect(shortfall(root, [{ path: "/etc/a", bytes: 1 }, { path: "/etc/b", bytes: Math.floor(free / 2) }])).toBeUndefined();
  });
});

describe("firstShortfall", () => {
  const ROOMS: Record<string, FolderRoom> = {
    "/etc": { device: "a", block: 1024, freeBytes: 10 * 1024, freeFiles: 3 },
    "/var/lib": { device: "a", block: 1024, freeBytes: 10 * 1024, freeFiles: 3 },
    "/srv": { device: "b", block: 4096, freeBytes: 1 << 30, freeFiles: null },
  };
  const roomOf = (folder: string) => ROOMS[folder];

  it("adds up the folders of one file system, and names it when it lacks inodes", () => {
    expect(firstShortfall([{ path: "/etc/a", bytes: 1 }, { path: "/var/lib/b", bytes: 1 }, { path: "/etc/c", bytes: 1 }], roomOf)).toBeUndefined();
    expect(firstShortfall([{ path: "/etc/a", bytes: 1 }, { path: "/var/lib/b", bytes: 1 }, { path: "/etc/c", bytes: 1 }, { path: "/etc/d", bytes: 0 }], roomOf)).toEqual({
      path: "/etc/a",
      needBytes: 3 * 1024,
      freeBytes: 10 * 1024,
      needFiles: 4,
      freeFiles: 3,
    });
  });

  it("sets no inode limit where the file system has none, and does not count a folder whose room is not known", () => {
    const many = Array.from({ length: 100 }, (_, i) => ({ path: `/srv/${i}`, bytes: 10 }));
    expect(firstShortfall(many, roomOf)).toBeUndefined();
    expect(firstShortfall([{ path: "/unknown/huge", bytes: 1 << 40 }], roomOf)).toBeUndefined();
  });
});
