import { execFileSync } from "node:child_process";
import { lstatSync, statfsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync, existsSync, chownSync, chmodSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LocalChannel } from "../__fixtures__/local-channel.js";
import type { FileOperation } from "@tend/core";
import { parseUserDatabases, RemoteHostFiles } from "./remote-files.js";
import { RemoteLock } from "./remote-lock.js";

const asRoot = process.getuid?.() === 0;
/** A file's attributes as a host reports them: its owner only where tend could set it (as root). */
const attributes = (mode: number, uid: number, gid: number) => (asRoot ? { mode, uid, gid } : { mode });

const USERS = parseUserDatabases("root:x:0:0::/root:/bin/sh\nnobody:x:65534:65534::/nonexistent:/bin/sh\n", "root:x:0:\nnogroup:x:65534:\n");

function setupIn(options: { ownShell?: boolean } = {}) {
  const root = mkdtempSync(join(tmpdir(), "tend-remote-"));
  const outside = mkdtempSync(join(tmpdir(), "tend-outside-"));
  const channel = new LocalChannel(options);
  const files = new RemoteHostFiles(channel, "test", USERS, root);
  return { root, outside, channel, files };
}

// As root over ssh a script runs in a session's shell (the library loaded once); through sudo, in a shell of its own.
describe.each([
  ["in a session's shell", {}],
  ["in a shell of its own", { ownShell: true }],
])("the remote file scripts (run under sh against a temp root), %s", (_, mode) => {
  const setup = () => setupIn(mode);

  it("write a whole batch in one round trip, exact bytes, mode and owner", async () => {
    const { root, channel, files } = setup();
    const tricky = "line 1\n'quoted' \"double\" $HOME `x` \\ back\n\n\n";
    const results = await files.perform([
      { op: "write", path: "/etc/app/one.conf", content: tricky, mode: 0o640, owner: { uid: 65534, gid: 65534 } },
      { op: "write", path: "/etc/app/two.conf", content: "no newline at end", mode: 0o600 },
      { op: "symlink", path: "/etc/app/link", target: "/etc/app/one.conf" },
      { op: "mkdir", path: "/var/lib/app", mode: 0o750 },
    ]);
    expect(results).toEqual([null, null, null, null]);
    expect(channel.scripts).toHaveLength(1);
    expect(readFileSync(join(root, "etc/app/one.conf"), "utf8")).toBe(tricky);
    expect(readFileSync(join(root, "etc/app/two.conf"), "utf8")).toBe("no newline at end");
    const st = lstatSync(join(root, "etc/app/one.conf"));
    expect(st.mode & 0o7777).toBe(0o640);
    if (process.getuid?.() === 0) expect(st.uid).toBe(65534);
    expect(readlinkSync(join(root, "etc/app/link"))).toBe("/etc/app/one.conf");
    expect(lstatSync(join(root, "var/lib/app")).mode & 0o7777).toBe(0o750);
    expect(readdirSync(join(root, "etc/app")).sort()).toEqual(["link", "one.conf", "two.conf"]);
    expect(await files.readFile("/etc/app/one.conf")).toBe(tricky);
    expect(await files.readLink("/etc/app/link")).toBe("/etc/app/one.conf");
    expect((await files.readDir("/etc/app"))?.sort()).toEqual(["link", "one.conf", "two.conf"]);
    expect(await files.inspectAll(["/etc/app", "/etc/none", "/etc/app/two.conf"])).toEqual([{ kind: "directory", attributes: attributes(0o755, 0, 0) }, { kind: "absent" }, { kind: "file", content: "no newline at end", attributes: attributes(0o600, 0, 0) }]);
  });

  it("read bytes that are not UTF-8 as they are, and write them back exactly (a backup of an edit saved in Latin-1)", async () => {
    const { root, files } = setup();
    // Latin-1, a NUL, a `%` and a backslash, a byte of each kind printf's format could misread.
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x25, 0x73, 0x25, 0x5c, 0x6e, 0x00, 0xff, 0x0a, 0x27, 0x22]);
    mkdirSync(join(root, "etc"));
    writeFileSync(join(root, "etc/edited"), latin1);
    const [found] = await files.inspectAll(["/etc/edited"]);
    expect(found).toMatchObject({ kind: "file", content: latin1.toString("utf8"), bytes: latin1 });
    expect(await files.perform([{ op: "write", path: "/var/lib/tend/backups/edited", content: (found as { bytes: Uint8Array }).bytes, mode: 0o600 }])).toEqual([null]);
    expect(readFileSync(join(root, "var/lib/tend/backups/edited"))).toEqual(latin1);
    const [utf8] = await files.inspectAll(["/var/lib/tend/backups/edited"]);
    expect(utf8).toMatchObject({ bytes: latin1 });
  });

  it("replace or delete a file only while it holds what the plan read there, and leave one that changed as it is", async () => {
    const { root, files } = setup();
    const at = (name: string) => join(root, "etc", name);
    mkdirSync(join(root, "etc"));
    const read = "port = 80\n'quoted' $HOME\n";
    for (const name of ["kept.conf", "gone.conf"]) writeFileSync(at(name), read);
    for (const name of ["edited.conf", "edited-gone.conf"]) writeFileSync(at(name), "port = 81 # an admin's edit\n");
    writeFileSync(at("appeared.conf"), "made meanwhile\n");
    writeFileSync(at("latin1.conf"), Buffer.from([0x63, 0xe9, 0x0a]));
    symlinkSync("/opt/other", at("link"));
    symlinkSync("/opt/app", at("same-link"));
    const operations: FileOperation[] = [
      { op: "write", path: "/etc/kept.conf", content: "port = 90\n", mode: 0o644, expected: read },
      { op: "write", path: "/etc/edited.conf", content: "port = 90\n", mode: 0o644, expected: read },
      { op: "write", path: "/etc/appeared.conf", content: "port = 90\n", mode: 0o644, expected: null },
      { op: "symlink", path: "/etc/link", target: "/opt/web", expected: "/opt/app" },
      { op: "symlink", path: "/etc/same-link", target: "/opt/web", expected: "/opt/app" },
      { op: "write", path: "/etc/new.conf", content: "port = 90\n", mode: 0o644, expected: null },
      { op: "write", path: "/etc/latin1.conf", content: "port = 90\n", mode: 0o644, expected: "c\uFFFD\n" },
      { op: "remove", path: "/etc/gone.conf", kind: "file", expected: read },
      { op: "remove", path: "/etc/edited-gone.conf", kind: "file", expected: read },
    ];
    const results = await files.perform(operations);
    const failed = Object.fromEntries(results.flatMap((r, i) => (r ? [[operations[i]!.path, `${r.code} ${r.message}`]] : [])));
    const changed = (verb: string, path: string) => `TEND_UNMANAGED_FILE did not ${verb} ${path} on test: it changed after this apply read it`;
    expect(failed).toEqual({
      "/etc/edited.conf": changed("overwrite", "/etc/edited.conf"),
      "/etc/appeared.conf": changed("overwrite", "/etc/appeared.conf"),
      "/etc/link": changed("overwrite", "/etc/link"),
      "/etc/edited-gone.conf": changed("delete", "/etc/edited-gone.conf"),
    });
    for (const name of ["kept.conf", "new.conf", "latin1.conf"]) expect(readFileSync(at(name), "utf8")).toBe("port = 90\n");
    for (const name of ["edited.conf", "edited-gone.conf"]) expect(readFileSync(at(name), "utf8")).toBe("port = 81 # an admin's edit\n");
    expect(readFileSync(at("appeared.conf"), "utf8")).toBe("made meanwhile\n");
    expect([readlinkSync(at("link")), readlinkSync(at("same-link"))]).toEqual(["/opt/other", "/opt/web"]);
    expect(readdirSync(join(root, "etc")).sort()).toEqual(["appeared.conf", "edited-gone.conf", "edited.conf", "kept.conf", "latin1.conf", "link", "new.conf", "same-link"]);
  });

  it("set a file's mode and owner in place, only on the regular file that holds what the plan read", async () => {
    const { root, outside, files } = setup();
    const at = (name: string) => join(root, "etc", name);
    mkdirSync(join(root, "etc"));
    const read = "port = 80\n";
    writeFileSync(at("loose.conf"), read);
    writeFileSync(at("edited.conf"), "port = 81 # an admin's edit\n");
    writeFileSync(join(outside, "victim"), read);
    for (const path of [at("loose.conf"), at("edited.conf"), join(outside, "victim")]) chmodSync(path, 0o666);
    symlinkSync(join(outside, "victim"), at("link.conf"));
    utimesSync(at("loose.conf"), 1_000_000, 1_000_000);
    mkdirSync(at("sv"), { mode: 0o777 });
    chmodSync(at("sv"), 0o777);
    const operations: FileOperation[] = [
      { op: "attributes", path: "/etc/loose.conf", kind: "file", mode: 0o640, owner: { uid: 65534, gid: 65534 }, expected: read },
      { op: "attributes", path: "/etc/edited.conf", kind: "file", mode: 0o640, expected: read },
      { op: "attributes", path: "/etc/link.conf", kind: "file", mode: 0o640, expected: read },
      { op: "attributes", path: "/etc/none.conf", kind: "file", mode: 0o640, expected: read },
      { op: "attributes", path: "/etc/sv", kind: "directory", mode: 0o755 },
      { op: "attributes", path: "/etc/loose.conf", kind: "directory", mode: 0o755 },
      { op: "attributes", path: "/etc/link.conf", kind: "directory", mode: 0o755 },
    ];
    const results = await files.perform(operations);
    expect(results.map((r) => r && `${r.code} ${r.message}`)).toEqual([
      null,
      "TEND_UNMANAGED_FILE did not change the mode of /etc/edited.conf on test: it changed after this apply read it",
      "TEND_UNSAFE_PATH cannot change the mode of /etc/link.conf on test: it is now a symlink, not the file tend wrote",
      "TEND_UNMANAGED_FILE did not change the mode of /etc/none.conf on test: it changed after this apply read it",
      null,
      "TEND_UNSAFE_PATH cannot change the mode of /etc/loose.conf on test: it is now a file, not the folder tend made",
      "TEND_UNSAFE_PATH cannot change the mode of /etc/link.conf on test: it is now a symlink, not the folder tend made",
    ]);
    expect(lstatSync(at("sv")).mode & 0o7777).toBe(0o755);
    const loose = lstatSync(at("loose.conf"));
    expect([loose.mode & 0o7777, loose.mtimeMs, readFileSync(at("loose.conf"), "utf8")]).toEqual([0o640, 1_000_000_000, read]);
    if (asRoot) expect([loose.uid, loose.gid]).toEqual([65534, 65534]);
    expect(lstatSync(at("edited.conf")).mode & 0o7777).toBe(0o666);
    expect(lstatSync(join(outside, "victim")).mode & 0o7777).toBe(0o666);
  });

  it("refuse to write or delete through a symlinked folder that leads outside the root", async () => {
    const { root, outside, files } = setup();
    mkdirSync(join(root, "etc"));
    symlinkSync(outside, join(root, "etc/sv"));
    writeFileSync(join(outside, "victim"), "keep");
    const [write, remove] = await files.perform([
      { op: "write", path: "/etc/sv/run", content: "x", mode: 0o755 },
      { op: "remove", path: "/etc/sv/victim", kind: "file" },
    ]);
    // An absolute link is taken beneath the root: `outside` does not exist there, so nothing escapes.
    expect(existsSync(join(outside, "run"))).toBe(false);
    expect(readFileSync(join(outside, "victim"), "utf8")).toBe("keep");
    // The absolute link is followed the way the init sees it: beneath the root.
    expect(write).toBeNull();
    expect(readFileSync(join(root, outside, "run"), "utf8")).toBe("x");
    expect(remove).toBeNull();
  });

  it("refuse `..` links that climb above the root and links at the target", async () => {
    const { root, outside, files } = setup();
    mkdirSync(join(root, "etc"));
    symlinkSync("../../../../../../../../" + outside.slice(1), join(root, "etc/up"));
    symlinkSync(join(outside, "target"), join(root, "etc/app.conf"));
    const [viaUp, atLink] = await files.perform([
      { op: "write", path: "/etc/up/x", content: "x", mode: 0o644 },
      { op: "write", path: "/etc/app.conf", content: "x", mode: 0o644 },
    ]);
    expect(existsSync(join(outside, "x"))).toBe(false);
    expect(existsSync(join(outside, "target"))).toBe(false);
    // `..` stops at the root: the link leads to <root>/<outside>.
    expect(viaUp).toBeNull();
    expect(readFileSync(join(root, outside, "x"), "utf8")).toBe("x");
    expect(atLink?.code).toBe("TEND_UNSAFE_PATH");
    expect(lstatSync(join(root, "etc/app.conf")).isSymbolicLink()).toBe(true);
  });

  it("refuse paths with `..` before sending anything", async () => {
    const { files } = setup();
    const [bad] = await files.perform([{ op: "write", path: "/etc/../../x", content: "x", mode: 0o644 }]);
    expect(bad?.code).toBe("TEND_UNSAFE_PATH");
  });

  it("leave no temp files, and clean up temps an interrupted write left", async () => {
    const { root, files } = setup();
    mkdirSync(join(root, "etc"));
    writeFileSync(join(root, "etc/.a.conf.tend-123-abc1"), "left over");
    expect(await files.perform([{ op: "clean-temps", path: "/etc/a.conf" }, { op: "write", path: "/etc/a.conf", content: "a", mode: 0o644 }, { op: "append", path: "/etc/j", content: "1\n", mode: 0o600 }])).toEqual([null, null, null]);
    expect(readdirSync(join(root, "etc")).sort()).toEqual(["a.conf", "j"]);
    expect(readFileSync(join(root, "etc/j"), "utf8")).toBe("1\n");
  });

  it.runIf(process.getuid?.() === 0)("as root, write in a folder a user owns as that user", async () => {
    const { root, files } = setup();
    // The user must reach its folder: the temp root is 0700.
    chmodSync(root, 0o755);
    mkdirSync(join(root, "home/nobody"), { recursive: true });
    chownSync(join(root, "home/nobody"), 65534, 65534);
    const channel = new LocalChannel(mode);
    const asRoot = new RemoteHostFiles(channel, "test", USERS, root);
    const [written] = await asRoot.perform([{ op: "write", path: "/home/nobody/x.conf", content: "x", mode: 0o644 }]);
    expect(written).toBeNull();
    expect(lstatSync(join(root, "home/nobody/x.conf")).uid).toBe(65534);
    void files;
  });
});

const setup = () => setupIn();

describe("the remote lock", () => {
  it("is held by one holder at a time and names it", async () => {
    const { root } = setup();
    const path = join(root, "var/lib/tend/lock");
    const first = new RemoteLock(new LocalChannel(), "test", path);
    await first.acquire();
    const second = new RemoteLock(new LocalChannel(), "test", path);
    await expect(second.acquire()).rejects.toMatchObject({ code: "TEND_LOCKED", message: expect.stringContaining(`pid ${process.pid}`) });
    first.release();
    await new Promise((r) => setTimeout(r, 200));
    await second.acquire();
    second.release();
  });

  it.each([
    ["a symlink", "it is a symlink tend did not make", (path: string) => symlinkSync("/etc/passwd", path)],
    ["a folder", "it is a folder, device, FIFO or socket, not a file", (path: string) => mkdirSync(path)],
    ["a FIFO (flock would wait on it for ever)", "it is a folder, device, FIFO or socket, not a file", (path: string) => execFileSync("mkfifo", [path])],
  ] as const)("refuses to open %s where the lock goes", async (_what, why, make) => {
    const { root } = setup();
    const path = join(root, "var/lib/tend/lock");
    mkdirSync(join(root, "var/lib/tend"), { recursive: true });
    make(path);
    const error = await new RemoteLock(new LocalChannel(), "test", path).acquire().catch((e: unknown) => e as { code: string; message: string });
    expect(`${error.code} ${error.message}`).toBe(`TEND_UNSAFE_PATH refusing to open the lock ${path} on test: ${why}`);
  });
});

describe("remote reads", () => {
  it("asked for in the same turn share one round trip", async () => {
    const { root, channel, files } = setup();
    mkdirSync(join(root, "etc"));
    writeFileSync(join(root, "etc/a"), "A");
    symlinkSync("/etc/a", join(root, "etc/l"));
    const [a, l, none, dir, list] = await Promise.all([files.readFile("/etc/a"), files.readLink("/etc/l"), files.exists("/etc/none"), files.isDirectory("/etc"), files.readDir("/etc")]);
    expect([a, l, none, dir, list?.sort()]).toEqual(["A", "/etc/a", false, true, ["a", "l"]]);
    expect(channel.scripts).toHaveLength(1);
  });

  it("find the room on each folder's file system in one round trip, as statfs reads it here", async () => {
    const { root, channel, files } = setup();
    mkdirSync(join(root, "etc"));
    writeFileSync(join(root, "etc/file"), "not a folder");
    expect(await files.shortfall([{ path: "/etc/app.conf", bytes: 1 }, { path: "/opt/new/deep/bin/run", bytes: 5000 }])).toBeUndefined();
    expect(channel.scripts).toHaveLength(1);
    // A folder not made yet counts on the nearest one that is: one file system, twice its free space asked for.
    const { bavail, bsize } = statfsSync(root);
    const huge = 2 * bavail * bsize;
    const short = await files.shortfall([{ path: "/etc/app.conf", bytes: 1 }, { path: "/opt/new/huge", bytes: huge }]);
    expect(short).toMatchObject({ path: "/etc/app.conf", needFiles: 2, needBytes: bsize + Math.ceil(huge / bsize) * bsize });
    expect(Math.abs(short!.freeBytes - bavail * bsize)).toBeLessThan(256 * 1024 * 1024);
    // A folder whose way is refused is not counted: its writes fail there on their own.
    expect(await files.shortfall([{ path: "/etc/file/huge", bytes: huge }])).toBeUndefined();
  });

  it("read a file's modification time, not a link's target's", async () => {
    const { root, files } = setup();
    mkdirSync(join(root, "etc"));
    writeFileSync(join(root, "etc/a"), "A");
    utimesSync(join(root, "etc/a"), 1_000_000, 1_000_000);
    expect(await files.modifiedAt("/etc/a")).toBe(1_000_000_000);
    expect(await files.modifiedAt("/etc/none")).toBeNull();
  });
});

describe("batched reads", () => {
  it("read many files, links and times in one script, exact bytes (NUL, no final newline, empty, a link's newline)", async () => {
    const { root, channel, files } = setup();
    mkdirSync(join(root, "etc/many"), { recursive: true });
    chmodSync(join(root, "etc/many"), 0o750);
    const contents = ["a\n", "", "no newline", "nul\0inside\n", "ünïcode ✓\n", "\n\n\n", "x".repeat(70_000)];
    // Each its own mode (and as root its own owner): each file's attributes are its own.
    const modes = [0o600, 0o644, 0o640, 0o4755, 0o400, 0o664, 0o1777];
    contents.forEach((c, i) => {
      writeFileSync(join(root, `etc/many/f${i}`), c);
      // chown clears setuid: the mode goes last
      if (asRoot) chownSync(join(root, `etc/many/f${i}`), 1000 + i, 2000 + i);
      chmodSync(join(root, `etc/many/f${i}`), modes[i]!);
    });
    symlinkSync("/etc/many/f0", join(root, "etc/many/l0"));
    symlinkSync("relative target", join(root, "etc/many/l1"));
    symlinkSync("two\nlines", join(root, "etc/many/l2"));
    utimesSync(join(root, "etc/many/f0"), 1_000_000, 1_000_000);
    utimesSync(join(root, "etc/many/f1"), 2_000_000, 2_000_000);
    const paths = [...contents.map((_, i) => `/etc/many/f${i}`), "/etc/many/l0", "/etc/many/l1", "/etc/many", "/etc/many/none", "/etc"];
    const [found, m0, m1, l2] = await Promise.all([files.inspectAll(paths), files.modifiedAt("/etc/many/f0"), files.modifiedAt("/etc/many/f1"), files.readLink("/etc/many/l2")]);
    expect(found).toEqual([
      ...contents.map((content, i) => ({ kind: "file", content, attributes: attributes(modes[i]!, 1000 + i, 2000 + i) })),
      { kind: "symlink", target: "/etc/many/f0" },
      { kind: "symlink", target: "relative target" },
      { kind: "directory", attributes: attributes(0o750, 0, 0) },
      { kind: "absent" },
      { kind: "directory", attributes: attributes(0o755, 0, 0) },
    ]);
    expect([m0, m1, l2]).toEqual([1_000_000_000, 2_000_000_000, "two\nlines"]);
    // One script; the link whose target holds a newline took a second (links one by one from then on).
    expect(channel.scripts).toHaveLength(2);
    expect(channel.scripts[0]).toMatch(/^hf_begin '[^']+' flmd\n/);
    expect(channel.scripts[1]).toMatch(/^hf_begin '[^']+'\ni_inspect \d+ '\/etc\/many\/l\d'\ni_inspect \d+ '\/etc\/many\/l\d'\ni_inspect \d+ '\/etc\/many\/l\d'\ni_end$/);
    expect(await files.readLink("/etc/many/l1")).toBe("relative target");
    expect(channel.scripts[2]).toMatch(/^hf_begin '[^']+' fmd\n/);
  });

  it("a batch that does not add up (a file changed between od and cksum) is read again one by one", async () => {
    const tools = mkdtempSync(join(tmpdir(), "tend-tools-"));
    // A cksum that sees other bytes than od did.
    writeFileSync(join(tools, "cksum"), '#!/bin/sh\nfor f in "$@"; do [ "$f" = -- ] || echo "1 1 $f"; done\n', { mode: 0o755 });
    const { root, channel, files } = setupIn({ path: tools });
    mkdirSync(join(root, "etc"));
    writeFileSync(join(root, "etc/a"), "A\n");
    writeFileSync(join(root, "etc/b"), "B");
    expect(await files.inspectAll(["/etc/a", "/etc/b"])).toEqual([
      { kind: "file", content: "A\n", attributes: attributes(0o644, 0, 0) },
      { kind: "file", content: "B", attributes: attributes(0o644, 0, 0) },
    ]);
    expect(channel.scripts).toHaveLength(2);
    expect(channel.scripts[1]).toMatch(/^hf_begin '[^']+'\n/);
    // Files are read one by one on this host from then on: one script.
    expect(await files.inspectAll(["/etc/a", "/etc/b"])).toHaveLength(2);
    expect(channel.scripts).toHaveLength(3);
    expect(channel.scripts[2]).toMatch(/^hf_begin '[^']+' lmd\n/);
  });
});
