import { statfsSync } from "node:fs";
import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { shortfall } from "./room-needed.js";

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
