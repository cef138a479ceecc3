import { lstat, mkdtemp, readFile, readdir, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomic, writeSymlinkAtomic } from "./atomic-write.js";

describe("atomic writes", () => {
  it("writes with the given mode whatever the umask, and leaves no temp file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-aw-"));
    const old = process.umask(0o077);
    try {
      await writeFileAtomic(join(dir, "a/b/c.conf"), "x\n", 0o644);
    } finally {
      process.umask(old);
    }
    expect((await lstat(join(dir, "a/b/c.conf"))).mode & 0o777).toBe(0o644);
    expect(await readdir(join(dir, "a/b"))).toEqual(["c.conf"]);
  });

  it("replaces a file in one step", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-aw-"));
    await writeFile(join(dir, "f"), "old");
    await writeFileAtomic(join(dir, "f"), "new", 0o600);
    expect(await readFile(join(dir, "f"), "utf8")).toBe("new");
  });

  it("refuses to write over a symlink (a mask, or a link planted into /etc)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-aw-"));
    await writeFile(join(dir, "target"), "precious");
    await symlink(join(dir, "target"), join(dir, "f"));
    await expect(writeFileAtomic(join(dir, "f"), "evil", 0o644)).rejects.toThrow("tend never writes through or over it");
    expect(await readFile(join(dir, "target"), "utf8")).toBe("precious");
  });

  it("refuses a folder path that runs through a symlink it would have to create under", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-aw-"));
    await writeFile(join(dir, "file"), "x");
    await expect(writeFileAtomic(join(dir, "file/sub/f"), "x", 0o644)).rejects.toThrow("it is not a folder");
  });

  it("points a symlink atomically", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-aw-"));
    await writeSymlinkAtomic(join(dir, "l"), "/etc/sv/a");
    await writeSymlinkAtomic(join(dir, "l"), "/etc/sv/b");
    expect((await lstat(join(dir, "l"))).isSymbolicLink()).toBe(true);
    expect(await readdir(dir)).toEqual(["l"]);
  });
});
