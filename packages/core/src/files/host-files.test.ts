import { spawn } from "node:child_process";
import { chmod, chown, lstat, mkdir, mkdtemp, readdir, readFile, rename, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { LocalHostFiles } from "./host-files.js";

const isRoot = process.getuid?.() === 0;
const SYSTEM = { kind: "system" } as const;

async function imageRoot() {
  const root = await mkdtemp(join(tmpdir(), "tend-hf-"));
  await chmod(root, 0o755);
  await mkdir(join(root, "etc"), { recursive: true });
  return root;
}

describe("LocalHostFiles", () => {
  it("says it holds the running host's own files only without a root (providers then read them themselves)", () => {
    expect(new LocalHostFiles(undefined, { kind: "system" }).local).toBe(true);
    expect(new LocalHostFiles(tmpdir(), { kind: "system" }).local).toBe(false);
  });

  it("writes through a folder link planted in the root only to where it points inside the root", async () => {
    const root = await imageRoot();
    const outside = await mkdtemp(join(tmpdir(), "tend-outside-"));
    await symlink(outside, join(root, "etc/sv"));
    const files = new LocalHostFiles(root, SYSTEM);
    await files.writeFile("/etc/sv/tend-web/run", "#!/bin/sh\n", { mode: 0o755 });
    expect(await readdir(outside)).toEqual([]);
    expect(await readFile(join(root, outside, "tend-web/run"), "utf8")).toBe("#!/bin/sh\n");
    await files.remove("/etc/sv/tend-web/run");
    expect(await readdir(join(root, outside, "tend-web"))).toEqual([]);
  });

  it("makes folders with their mode whatever the umask, and leaves no temp file", async () => {
    const root = await imageRoot();
    const files = new LocalHostFiles(root, SYSTEM);
    const old = process.umask(0o077);
    try {
      await files.writeFile("/etc/app/conf.d/app.conf", "x\n", { mode: 0o644 });
      await files.mkdir("/srv/data", { mode: 0o750 });
    } finally {
      process.umask(old);
    }
    expect((await lstat(join(root, "etc/app"))).mode & 0o777).toBe(0o755);
    expect((await lstat(join(root, "etc/app/conf.d"))).mode & 0o777).toBe(0o755);
    expect((await lstat(join(root, "etc/app/conf.d/app.conf"))).mode & 0o777).toBe(0o644);
    expect((await lstat(join(root, "srv"))).mode & 0o777).toBe(0o755);
    expect((await lstat(join(root, "srv/data"))).mode & 0o777).toBe(0o750);
    expect(await readdir(join(root, "etc/app/conf.d"))).toEqual(["app.conf"]);
  });

  it.skipIf(!isRoot)("keeps setuid and setgid bits on what it gives another owner, written, made or set in place (a chown clears them)", async () => {
    const root = await imageRoot();
    await writeFile(join(root, "etc/passwd"), "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n");
    await writeFile(join(root, "etc/group"), "root:x:0:\nnogroup:x:65534:\n");
    const files = new LocalHostFiles(root, SYSTEM);
    await files.writeFile("/usr/local/bin/helper", "#!/bin/sh\n", { mode: 0o4755, owner: "nobody", group: "nogroup" });
    await files.mkdir("/srv/shared", { mode: 0o2775, owner: "nobody", group: "nogroup" });
    const helper = await lstat(join(root, "usr/local/bin/helper"));
    expect([helper.mode & 0o7777, helper.uid, helper.gid]).toEqual([0o4755, 65534, 65534]);
    const shared = await lstat(join(root, "srv/shared"));
    expect([shared.mode & 0o7777, shared.uid, shared.gid]).toEqual([0o2775, 65534, 65534]);
    // In place, as apply sets back a mode loosened by hand.
    await chown(join(root, "usr/local/bin/helper"), 0, 0);
    await chmod(join(root, "usr/local/bin/helper"), 0o755);
    const [failed] = await files.perform([{ op: "attributes", path: "/usr/local/bin/helper", kind: "file", mode: 0o6755, owner: { uid: 65534, gid: 65534 }, expected: "#!/bin/sh\n" }]);
    expect(failed).toBeNull();
    const set = await lstat(join(root, "usr/local/bin/helper"));
    expect([set.mode & 0o7777, set.uid, set.gid]).toEqual([0o6755, 65534, 65534]);
  });

  it.skipIf(!isRoot)("gives a file, a folder or a link the group alone when no owner is named, written, made or set in place", async () => {
    const root = await imageRoot();
    await writeFile(join(root, "etc/group"), "root:x:0:\nnogroup:x:65534:\n");
    const files = new LocalHostFiles(root, SYSTEM);
    await files.writeFile("/etc/app.conf", "x\n", { mode: 0o640, group: "nogroup" });
    await files.mkdir("/srv/app", { mode: 0o750, group: "nogroup" });
    for (const path of ["etc/app.conf", "srv/app"]) {
      const info = await lstat(join(root, path));
      expect([path, info.uid, info.gid]).toEqual([path, 0, 65534]);
    }
    await chown(join(root, "etc/app.conf"), 0, 0);
    const [failed] = await files.perform([{ op: "attributes", path: "/etc/app.conf", kind: "file", mode: 0o640, owner: { gid: 65534 }, expected: "x\n" }]);
    expect(failed).toBeNull();
    expect((await lstat(join(root, "etc/app.conf"))).gid).toBe(65534);
    const [linked] = await files.perform([{ op: "symlink", path: "/etc/app.link", target: "/etc/app.conf", owner: { gid: 65534 } }]);
    expect(linked).toBeNull();
    expect((await lstat(join(root, "etc/app.link"))).gid).toBe(65534);
  });

  it("never writes through or over a link at the target, and never deletes a link where it wrote a file", async () => {
    const root = await imageRoot();
    await writeFile(join(root, "etc/precious"), "keep\n");
    await symlink("/etc/precious", join(root, "etc/tend-web.service"));
    const files = new LocalHostFiles(root, SYSTEM);
    expect(files.inspect("/etc/tend-web.service")).toEqual({ kind: "symlink", target: "/etc/precious" });
    await expect(files.writeFile("/etc/tend-web.service", "evil\n")).rejects.toThrow("it is a symlink to /etc/precious; tend never writes through or over it");
    const [failure] = await files.perform([{ op: "remove", path: "/etc/tend-web.service", kind: "file" }]);
    expect(failure?.message).toContain("it is now a symlink, not the file tend wrote");
    expect(await readFile(join(root, "etc/precious"), "utf8")).toBe("keep\n");
    expect((await lstat(join(root, "etc/tend-web.service"))).isSymbolicLink()).toBe(true);
  });

  it("replaces or deletes a file only while it holds what the plan read there, and leaves one that changed as it is", async () => {
    const root = await imageRoot();
    const at = (name: string) => join(root, "etc", name);
    for (const name of ["kept.conf", "edited.conf", "gone.conf", "edited-gone.conf"]) await writeFile(at(name), "port = 80\n");
    await writeFile(at("edited.conf"), "port = 81 # an admin's edit\n");
    await writeFile(at("edited-gone.conf"), "port = 81 # an admin's edit\n");
    await writeFile(at("appeared.conf"), "made meanwhile\n");
    await symlink("/opt/other", at("link"));
    const files = new LocalHostFiles(root, SYSTEM);
    const read = "port = 80\n";
    const results = await files.perform([
      { op: "write", path: "/etc/kept.conf", content: "port = 90\n", mode: 0o644, expected: read },
      { op: "write", path: "/etc/edited.conf", content: "port = 90\n", mode: 0o644, expected: read },
      { op: "write", path: "/etc/appeared.conf", content: "port = 90\n", mode: 0o644, expected: null },
      { op: "symlink", path: "/etc/link", target: "/opt/web", expected: "/opt/app" },
      { op: "write", path: "/etc/new.conf", content: "port = 90\n", mode: 0o644, expected: null },
      { op: "remove", path: "/etc/gone.conf", kind: "file", expected: read },
      { op: "remove", path: "/etc/edited-gone.conf", kind: "file", expected: read },
    ]);
    expect(results.map((r) => r?.message ?? null)).toEqual([
      null,
      "did not overwrite /etc/edited.conf: it changed after this apply read it",
      "did not overwrite /etc/appeared.conf: it changed after this apply read it",
      "did not overwrite /etc/link: it changed after this apply read it",
      null,
      null,
      "did not delete /etc/edited-gone.conf: it changed after this apply read it",
    ]);
    expect(results[1]?.code).toBe("TEND_UNMANAGED_FILE");
    expect(await readFile(at("kept.conf"), "utf8")).toBe("port = 90\n");
    expect(await readFile(at("new.conf"), "utf8")).toBe("port = 90\n");
    expect(await readFile(at("edited.conf"), "utf8")).toBe("port = 81 # an admin's edit\n");
    expect(await readFile(at("edited-gone.conf"), "utf8")).toBe("port = 81 # an admin's edit\n");
    expect(await readFile(at("appeared.conf"), "utf8")).toBe("made meanwhile\n");
    expect((await readdir(join(root, "etc"))).sort()).toEqual(["appeared.conf", "edited-gone.conf", "edited.conf", "kept.conf", "link", "new.conf"]);
    expect((await lstat(at("link"))).isSymbolicLink()).toBe(true);
  });

  it("removes the temp files an interrupted write left, and nothing else", async () => {
    const root = await imageRoot();
    await writeFile(join(root, "etc/.app.conf.tend-4242-0a1b2c3d"), "half");
    await writeFile(join(root, "etc/.app.conf.tend-notes"), "an admin's");
    await writeFile(join(root, "etc/app.conf"), "x");
    const files = new LocalHostFiles(root, SYSTEM);
    await files.perform([{ op: "clean-temps", path: "/etc/app.conf" }]);
    expect((await readdir(join(root, "etc"))).sort()).toEqual([".app.conf.tend-notes", "app.conf"]);
  });

  it("appends to a file it makes with its mode, then to the same file, and never through a link", async () => {
    const root = await imageRoot();
    const files = new LocalHostFiles(root, SYSTEM);
    const append = (content: string, path = "/var/lib/tend/state.journal") => files.perform([{ op: "append", path, content, mode: 0o600 }]);
    expect(await append("one\n")).toEqual([null]);
    expect(await append("two\n")).toEqual([null]);
    expect(await readFile(join(root, "var/lib/tend/state.journal"), "utf8")).toBe("one\ntwo\n");
    expect((await lstat(join(root, "var/lib/tend/state.journal"))).mode & 0o777).toBe(0o600);
    const outside = join(await mkdtemp(join(tmpdir(), "tend-outside-")), "target");
    await writeFile(outside, "mine\n");
    await symlink(outside, join(root, "var/lib/tend/linked"));
    const [failure] = await append("three\n", "/var/lib/tend/linked");
    expect(failure).not.toBeNull();
    expect(await readFile(outside, "utf8")).toBe("mine\n");
  });

  it("inspects a folder, then the files in it and in a folder link beside it, as each is", async () => {
    const root = await imageRoot();
    const outside = await mkdtemp(join(tmpdir(), "tend-outside-"));
    await writeFile(join(outside, "run"), "outside\n");
    await mkdir(join(root, "etc/sv/web/log"), { recursive: true });
    await writeFile(join(root, "etc/sv/web/run"), "#!/bin/sh\n");
    await writeFile(join(root, "etc/sv/web/log/run"), "");
    await writeFile(join(root, "etc/sv/big"), "é".repeat(100_000));
    await mkdir(join(root, outside), { recursive: true });
    await writeFile(join(root, outside, "run"), "inside\n");
    await symlink(outside, join(root, "etc/sv/linked"));
    const files = new LocalHostFiles(root, SYSTEM);
    const paths = ["/etc/sv/web", "/etc/sv/web/run", "/etc/sv/web/log", "/etc/sv/web/log/run", "/etc/sv/linked", "/etc/sv/linked/run", "/etc/sv/big", "/etc/sv/web/none"];
    await chmod(join(root, "etc/sv/web/run"), 0o755);
    await chmod(join(root, outside, "run"), 0o600);
    await chmod(join(outside, "run"), 0o640);
    const mode = (bits: number) => expect.objectContaining({ mode: bits });
    await chmod(join(root, "etc/sv/web/log"), 0o700);
    expect(await files.inspectAll(paths)).toEqual([
      { kind: "directory", attributes: mode(0o755) },
      { kind: "file", content: "#!/bin/sh\n", attributes: mode(0o755) },
      { kind: "directory", attributes: mode(0o700) },
      { kind: "file", content: "", attributes: mode(0o644) },
      { kind: "symlink", target: outside },
      // through the link, beneath the root: never the folder outside it
      { kind: "file", content: "inside\n", attributes: mode(0o600) },
      { kind: "file", content: "é".repeat(100_000), attributes: mode(0o644) },
      { kind: "absent" },
    ]);
  });

  it("reads a file whose size the kernel does not know (procfs) to its end", async () => {
    const files = new LocalHostFiles(undefined, SYSTEM);
    const status = await files.readFile(`/proc/${process.pid}/status`);
    expect(status).toMatch(/^Name:/);
    expect(status).toContain(`Pid:\t${process.pid}\n`);
    // Past the room such a read starts with: a process's environment of ~100 kB.
    const big = "x".repeat(100_000);
    const child = spawn("/bin/sleep", ["30"], { env: { BIG: big, LAST: "end" }, stdio: "ignore" });
    try {
      const environ = await files.readFile(`/proc/${child.pid}/environ`);
      expect(environ).toBe(`BIG=${big}\0LAST=end\0`);
    } finally {
      child.kill();
    }
  });

  it("reads files one after another through the room it keeps, each exactly: big ones, then small ones", async () => {
    const root = await imageRoot();
    const texts: Record<string, string> = {
      "/etc/huge": "é".repeat(1_500_000), // 3 MB: past the room it keeps between reads
      "/etc/small": "ok\n",
      "/etc/big": "ü".repeat(50_000) + "end", // 100 kB: past the room it starts with
      "/etc/tiny": "x",
      "/etc/empty": "",
      "/etc/unit": "[Service]\nExecStart=/bin/true\n",
    };
    for (const [path, text] of Object.entries(texts)) await writeFile(join(root, path), text);
    const files = new LocalHostFiles(root, SYSTEM);
    for (const order of [Object.keys(texts), Object.keys(texts).reverse(), Object.keys(texts)]) {
      for (const path of order) expect(await files.readFile(path)).toBe(texts[path]);
    }
    expect(files.inspect("/etc/tiny")).toMatchObject({ kind: "file", content: "x" });
  });

  it("gives a file's modification time as inspect saw it with the content, until tend writes", async () => {
    const root = await imageRoot();
    await writeFile(join(root, "etc/run"), "x\n");
    await utimes(join(root, "etc/run"), 1000, 1000);
    const files = new LocalHostFiles(root, SYSTEM);
    expect(files.inspect("/etc/run")).toMatchObject({ kind: "file", content: "x\n" });
    await utimes(join(root, "etc/run"), 2000, 2000);
    expect(await files.modifiedAt("/etc/run")).toBe(1_000_000);
    await files.writeFile("/etc/other", "y\n");
    expect(await files.modifiedAt("/etc/run")).toBe(2_000_000);
    // a command ran (its folders are forgotten): the time is still that of the content read
    files.inspect("/etc/run");
    await utimes(join(root, "etc/run"), 3000, 3000);
    files.forgetFolders();
    expect(await files.modifiedAt("/etc/run")).toBe(2_000_000);
    await files.mkdir("/srv");
    expect(await files.modifiedAt("/etc/run")).toBe(3_000_000);
    expect(await files.modifiedAt("/etc/none")).toBeNull();
  });

  it("gives a link's target as inspect read it, until tend writes or runs a command", async () => {
    const root = await imageRoot();
    const link = join(root, "etc/tend-web");
    const repoint = async (target: string) => {
      await symlink(target, `${link}.tmp`);
      await rename(`${link}.tmp`, link);
    };
    await symlink("/etc/sv/tend-web", link);
    const files = new LocalHostFiles(root, SYSTEM);
    expect(files.inspect("/etc/tend-web")).toEqual({ kind: "symlink", target: "/etc/sv/tend-web" });
    await repoint("/etc/sv/other");
    expect(await files.readLink("/etc/tend-web")).toBe("/etc/sv/tend-web");
    // a command ran (an init may link and unlink): the link is read again
    files.forgetFolders();
    expect(await files.readLink("/etc/tend-web")).toBe("/etc/sv/other");
    files.inspect("/etc/tend-web");
    await repoint("/etc/sv/third");
    await files.writeFile("/etc/other", "y\n");
    expect(await files.readLink("/etc/tend-web")).toBe("/etc/sv/third");
    // a path inspect never saw as a link is read as it is
    expect(await files.readLink("/etc/other")).toBeNull();
  });

  it("gives a file's text as inspect read it, until tend writes or runs a command", async () => {
    const root = await imageRoot();
    const unit = join(root, "etc/tend-web.service");
    await writeFile(unit, "[Install]\nWantedBy=multi-user.target\n");
    const files = new LocalHostFiles(root, SYSTEM);
    expect(files.inspect("/etc/tend-web.service")).toMatchObject({ kind: "file", content: "[Install]\nWantedBy=multi-user.target\n" });
    await writeFile(unit, "[Install]\n");
    expect(await files.readFile("/etc/tend-web.service")).toBe("[Install]\nWantedBy=multi-user.target\n");
    // a command ran (systemctl may rewrite what it manages): the file is read again
    files.forgetFolders();
    expect(await files.readFile("/etc/tend-web.service")).toBe("[Install]\n");
    files.inspect("/etc/tend-web.service");
    await writeFile(unit, "");
    await files.writeFile("/etc/other", "y\n");
    expect(await files.readFile("/etc/tend-web.service")).toBe("");
    // a path inspect never read is read as it is
    expect(await files.readFile("/etc/none")).toBeNull();
  });

  it("refuses a read through a link loop as a read, and changes nothing", async () => {
    const root = await imageRoot();
    await symlink("/etc/sv", join(root, "etc/sv"));
    const files = new LocalHostFiles(root, SYSTEM);
    let thrown: unknown;
    try {
      files.inspect("/etc/sv/tend-web/run");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: "TEND_UNSAFE_PATH" });
    expect((thrown as Error).message).toMatch(/^refusing to use \/etc\/sv: resolving it inside .* follows more than 40 symlinks$/);
    expect(await readdir(join(root, "etc"))).toEqual(["sv"]);
  });

  it("reads a file without following a link there", async () => {
    const root = await imageRoot();
    await writeFile(join(root, "etc/real"), "secret\n");
    await symlink("/etc/real", join(root, "etc/link"));
    const files = new LocalHostFiles(root, SYSTEM);
    expect(await files.readFile("/etc/link")).toBeNull();
    expect(await files.readFile("/etc/real")).toBe("secret\n");
  });
});

describe.runIf(isRoot)("LocalHostFiles as root", () => {
  /** An image root with alice (uid 65534) owning /home/alice. */
  async function withAlice() {
    const root = await imageRoot();
    await writeFile(join(root, "etc/passwd"), "root:x:0:0::/root:/bin/sh\nalice:x:65534:65534::/home/alice:/bin/sh\n");
    await writeFile(join(root, "etc/group"), "root:x:0:\nalice:x:65534:\n");
    await mkdir(join(root, "home/alice"), { recursive: true });
    await chown(join(root, "home/alice"), 65534, 65534);
    return root;
  }

  /** This process's children running as alice: her writer, while it lives. */
  async function alicesWriters(): Promise<number[]> {
    const pids: number[] = [];
    for (const name of (await readdir("/proc")).filter((entry) => /^\d+$/.test(entry))) {
      const status = await readFile(`/proc/${name}/status`, "utf8").catch(() => "");
      if (/^PPid:\s+(\d+)$/m.exec(status)?.[1] === String(process.pid) && /^Uid:\s+65534\s/m.test(status)) pids.push(Number(name));
    }
    return pids;
  }

  it("writes an apply's batches as a user through one child, which exits once idle; the next batch starts another", async () => {
    const root = await withAlice();
    const files = new LocalHostFiles(root, SYSTEM);
    const writers = new Set<number>();
    for (let i = 0; i < 4; i += 1) {
      await files.writeFile(`/home/alice/batch-${i}`, `${i}\n`);
      for (const pid of await alicesWriters()) writers.add(pid);
    }
    expect(writers.size).toBe(1);
    for (let i = 0; i < 60 && (await alicesWriters()).length > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await alicesWriters()).toEqual([]);
    await files.writeFile("/home/alice/later", "later\n");
    expect((await lstat(join(root, "home/alice/later"))).uid).toBe(65534);
  });

  it("starts another writer for the next batch when the last was killed between batches", async () => {
    const root = await withAlice();
    const files = new LocalHostFiles(root, SYSTEM);
    await files.writeFile("/home/alice/first", "1\n");
    const [writer] = await alicesWriters();
    expect(writer).toBeDefined();
    process.kill(writer!, "SIGKILL");
    for (let i = 0; i < 50 && (await alicesWriters()).includes(writer!); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await files.perform([{ op: "write", path: "/home/alice/second", content: "2\n", mode: 0o644 }])).toEqual([null]);
    expect(await readFile(join(root, "home/alice/second"), "utf8")).toBe("2\n");
  });

  it("writes into a folder a user owns only as that user, even in the system scope", async () => {
    const root = await withAlice();
    const files = new LocalHostFiles(root, SYSTEM);
    await files.writeFile("/home/alice/.config/app.conf", "x\n");
    const file = await lstat(join(root, "home/alice/.config/app.conf"));
    const dir = await lstat(join(root, "home/alice/.config"));
    expect([file.uid, dir.uid]).toEqual([65534, 65534]);
  });

  it("as that user too, leaves a file in her folder that changed after the plan read it", async () => {
    const root = await withAlice();
    const files = new LocalHostFiles(root, SYSTEM);
    await files.writeFile("/home/alice/.config/app.conf", "x\n");
    await writeFile(join(root, "home/alice/.config/app.conf"), "hers\n");
    const [failure] = await files.perform([{ op: "write", path: "/home/alice/.config/app.conf", content: "y\n", mode: 0o644, expected: "x\n" }]);
    expect(failure?.message).toBe("did not overwrite /home/alice/.config/app.conf: it changed after this apply read it");
    expect(await readFile(join(root, "home/alice/.config/app.conf"), "utf8")).toBe("hers\n");
    expect(await files.perform([{ op: "write", path: "/home/alice/.config/app.conf", content: "y\n", mode: 0o644, expected: "hers\n" }])).toEqual([null]);
    expect(await readFile(join(root, "home/alice/.config/app.conf"), "utf8")).toBe("y\n");
  });

  it("cannot be steered out of a user's folder by a link the user planted", async () => {
    const root = await withAlice();
    await mkdir(join(root, "etc/secret"), { mode: 0o755 });
    await writeFile(join(root, "etc/secret/keep"), "root's\n");
    await symlink("../../etc/secret", join(root, "home/alice/.config"));
    await lchownQuiet(join(root, "home/alice/.config"));
    const files = new LocalHostFiles(root, SYSTEM);
    await expect(files.writeFile("/home/alice/.config/keep", "owned\n")).rejects.toThrow(/writing as alice|permission denied/);
    expect(await readFile(join(root, "etc/secret/keep"), "utf8")).toBe("root's\n");
  });

  it("cannot be steered out of a user's folder by a link the user swaps in and out while tend writes", async () => {
    const root = await withAlice();
    await mkdir(join(root, "etc/secret"), { mode: 0o755 });
    await writeFile(join(root, "etc/secret/keep"), "root's\n");
    await mkdir(join(root, "home/alice/.config"));
    await chown(join(root, "home/alice/.config"), 65534, 65534);
    // alice, as fast as she can: her folder, then a link to root's folder in its place, and back
    const swap = "while :; do mv .config .real; ln -s ../../etc/secret .config; rm .config; mv .real .config; done";
    const attacker = spawn("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "sh", "-c", swap], { cwd: join(root, "home/alice"), stdio: "ignore" });
    // Ended however the test ends, a timeout included (which runs no `finally` of the test's own).
    onTestFinished(() => void attacker.kill("SIGKILL"));
    let written = 0;
    try {
      // A few seconds of writes, each its own resolution of the path, whoever wins the race.
      const until = performance.now() + 4_000;
      for (let i = 0; performance.now() < until; i++) {
        const files = new LocalHostFiles(root, SYSTEM);
        await files.writeFile("/home/alice/.config/keep", `owned ${i}\n`).then(
          () => (written += 1),
          () => undefined, // refused, or alice's own write was denied: either way not root's
        );
      }
    } finally {
      attacker.kill("SIGKILL");
      await new Promise((resolve) => attacker.once("exit", resolve));
    }
    expect(await readdir(join(root, "etc/secret"))).toEqual(["keep"]);
    expect(await readFile(join(root, "etc/secret/keep"), "utf8")).toBe("root's\n");
    expect((await lstat(join(root, "etc/secret/keep"))).uid).toBe(0);
    // the race was run: some writes landed in her own folder, as hers
    expect(written).toBeGreaterThan(0);
  }, 60_000);

  it("refuses to give a file in a user's folder to someone else", async () => {
    const root = await withAlice();
    const files = new LocalHostFiles(root, SYSTEM);
    await expect(files.writeFile("/home/alice/x", "x", { owner: "root" })).rejects.toThrow("it lives in a folder alice owns");
  });
});

async function lchownQuiet(path: string) {
  const { lchown } = await import("node:fs/promises");
  await lchown(path, 65534, 65534);
}
