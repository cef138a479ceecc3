import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { chmod, chown, lstat, mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const CLI = new URL("../dist/bin.js", import.meta.url).pathname;
const isRoot = process.getuid?.() === 0;

async function tend(args: string[], cwd: string) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: "1" } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** An image root whose password database has alice (uid 65534), with her home owned by her. */
async function imageWithAlice() {
  const dir = await mkdtemp(join(tmpdir(), "tend-user-"));
  await chmod(dir, 0o755);
  const root = join(dir, "root");
  await mkdir(join(root, "etc"), { recursive: true });
  await mkdir(join(root, "home/alice"), { recursive: true });
  await writeFile(join(root, "etc/passwd"), "root:x:0:0::/root:/bin/sh\nalice:x:65534:65534::/home/alice:/bin/sh\n");
  await writeFile(join(root, "etc/group"), "root:x:0:\nalice:x:65534:\n");
  await chmod(root, 0o755);
  await chown(join(root, "home/alice"), 65534, 65534);
  return { dir, root };
}

describe.runIf(isRoot)("user-scope writes as root", () => {
  it("writes inside the user's home as the user, so files and folders are hers", async () => {
    const { dir, root } = await imageWithAlice();
    await writeFile(join(dir, "tend.yaml"), "tend: v1alpha1\ntype: File\nname: note\npath: /home/alice/.config/note.txt\ncontent: hi\n");
    const result = await tend(["apply", "--init", "runit", "--root", root, "--user", "alice"], dir);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const file = await lstat(join(root, "home/alice/.config/note.txt"));
    const folder = await lstat(join(root, "home/alice/.config"));
    expect([file.uid, folder.uid]).toEqual([65534, 65534]);
  });

  it("cannot be led out of the home by a symlink the user planted", async () => {
    const { dir, root } = await imageWithAlice();
    await mkdir(join(root, "etc/secret"), { mode: 0o755 });
    await writeFile(join(root, "etc/secret/keep"), "root's\n");
    await symlink(join(root, "etc/secret"), join(root, "home/alice/.config"));
    await writeFile(join(dir, "tend.yaml"), "tend: v1alpha1\ntype: File\nname: note\npath: /home/alice/.config/keep\ncontent: owned\n");
    const result = await tend(["apply", "--init", "runit", "--root", root, "--user", "alice"], dir);
    expect(result.code).toBe(1);
    expect(await readFile(join(root, "etc/secret/keep"), "utf8")).toBe("root's\n");
  });

  it("cannot be made to delete a file outside the home by a record the user forged in her state", async () => {
    const { dir, root } = await imageWithAlice();
    await writeFile(join(root, "etc/precious"), "root's\n", { mode: 0o644 });
    await writeFile(join(dir, "tend.yaml"), "tend: v1alpha1\ntype: File\nname: note\npath: /home/alice/note.txt\ncontent: hi\n");
    expect((await tend(["apply", "--init", "runit", "--root", root, "--user", "alice"], dir)).code).toBe(0);
    // Her state is hers to write: she records root's file as one tend wrote for her, with its hash.
    const path = join(root, "home/alice/.local/state/tend/state.json");
    const state = JSON.parse(await readFile(path, "utf8")) as { resources: Record<string, unknown> };
    const hash = `sha256:${createHash("sha256").update("root's\n").digest("hex")}`;
    state.resources["file:precious"] = {
      resource: { type: "file", name: "precious", path: "/etc/precious", content: "root's\n" },
      provider: "file",
      artifacts: [{ store: "file", path: "/etc/precious", hash }],
    };
    await writeFile(path, JSON.stringify(state));
    const result = await tend(["apply", "--init", "runit", "--root", root, "--user", "alice"], dir);
    expect(await readFile(join(root, "etc/precious"), "utf8")).toBe("root's\n");
    expect(`${result.stdout}${result.stderr}`).toContain("/etc/precious, outside /home/alice");
  });

  // The race the user would have to win, won every time: strace holds the writer (running as
  // alice) right after it checked her folder and before it makes its temp file there, and alice
  // swaps the folder for a link to root's folder in that moment.
  it("cannot be led out of the home by a folder the user swaps for a link between tend's check and its write", async () => {
    const { dir, root } = await imageWithAlice();
    await mkdir(join(root, "etc/secret"), { mode: 0o755 });
    await writeFile(join(root, "etc/secret/keep"), "root's\n");
    const config = join(root, "home/alice/.config");
    await mkdir(config);
    await chown(config, 65534, 65534);
    await writeFile(join(dir, "tend.yaml"), "tend: v1alpha1\ntype: File\nname: note\npath: /home/alice/.config/keep\ncontent: owned\n");
    // Each process's first statx of the folder is held 1.5 s after it returns: tend's own, then the writer's.
    const strace = ["-f", "-qq", "-o", "/dev/null", "-e", "trace=statx", "-e", "inject=statx:delay_exit=1500000:when=1", "-P", config];
    const apply = run("strace", [...strace, process.execPath, CLI, "apply", "--init", "runit", "--root", root, "--user", "alice"], { cwd: dir, env: { ...process.env, NO_COLOR: "1" } }).then(
      (done) => ({ code: 0, ...done }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    let held = false;
    for (let tries = 0; tries < 200 && !held; tries += 1) {
      // The writer: a node process of alice's, stopped by its tracer.
      const { stdout } = await run("ps", ["-eo", "uid=,stat=,comm="]);
      held = stdout.split("\n").some((line) => /^\s*65534\s+t\S*\s+node$/.test(line));
      if (!held) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(held).toBe(true);
    await run("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "sh", "-c", "mv .config .real && ln -s ../../etc/secret .config"], { cwd: join(root, "home/alice") });
    const result = await apply;
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stderr).toMatch(/file:note/);
    expect(await readdir(join(root, "etc/secret"))).toEqual(["keep"]);
    expect(await readFile(join(root, "etc/secret/keep"), "utf8")).toBe("root's\n");
  }, 60_000);
});

describe("the backup of a file edited by hand", () => {
  // Latin-1 bytes (not UTF-8), a NUL, `%` and a backslash: any of them altered would be data lost.
  const EDITED = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x25, 0x73, 0x5c, 0x00, 0xff, 0x0a]);

  async function editedBackup(dir: string, root: string, path: string, flags: string[]): Promise<Buffer> {
    await writeFile(join(dir, "tend.yaml"), `tend: v1alpha1\ntype: File\nname: note\npath: ${path}\ncontent: "hi\\n"\n`);
    expect((await tend(["apply", "--init", "runit", "--root", root, ...flags], dir)).code).toBe(0);
    await writeFile(join(root, path), EDITED);
    const result = await tend(["apply", "--init", "runit", "--root", root, ...flags], dir);
    expect(result.stdout).toContain("it was edited; the edited copy is kept under backups/");
    expect(await readFile(join(root, path), "utf8")).toBe("hi\n");
    const backups = (await readdir(root, { recursive: true })).filter((p) => p.includes("backups/") && p.endsWith(path.split("/").pop()!));
    expect(backups).toHaveLength(1);
    return readFile(join(root, backups[0]!));
  }

  it("keeps its bytes exactly, bytes that are not UTF-8 included", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-backup-"));
    const root = join(dir, "root");
    await mkdir(root);
    expect(await editedBackup(dir, root, "/etc/note.txt", [])).toEqual(EDITED);
  });

  it.runIf(isRoot)("keeps its bytes exactly in a user's scope too, written as her", async () => {
    const { dir, root } = await imageWithAlice();
    expect(await editedBackup(dir, root, "/home/alice/note.txt", ["--user", "alice"])).toEqual(EDITED);
  });
});
