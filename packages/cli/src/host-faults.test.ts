import { execFile, execFileSync, spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { imageRoot } from "./__fixtures__/image-root.js";

const run = promisify(execFile);
const CLI = new URL("../dist/bin.js", import.meta.url).pathname;
const isRoot = process.getuid?.() === 0;

async function exec(argv: string[], cwd: string) {
  try {
    const { stdout, stderr } = await run(argv[0]!, argv.slice(1), { cwd, env: { ...process.env, NO_COLOR: "1" } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Whether this machine's temp folder keeps the immutable attribute (ext4, xfs, btrfs do; tmpfs and overlayfs do not). */
function immutableFilesHere(): boolean {
  const probe = join(tmpdir(), `tend-chattr-${process.pid}`);
  try {
    writeFileSync(probe, "");
    execFileSync("chattr", ["+i", probe], { stdio: "ignore" });
    execFileSync("chattr", ["-i", probe], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { force: true });
  }
}

const tend = (args: string[], cwd: string) => exec([process.execPath, CLI, ...args], cwd);
/** tend run as nobody (uid 65534), from root. */
const tendAsNobody = (args: string[], cwd: string) => exec(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, CLI, ...args], cwd);

async function specDir(yaml: string) {
  const dir = await mkdtemp(join(tmpdir(), "tend-fault-"));
  await chmod(dir, 0o755);
  await writeFile(join(dir, "tend.yaml"), yaml);
  return dir;
}

/** One clean TEND_* error, never TEND_INTERNAL or a stack trace. */
function expectCleanError(stderr: string, code: string) {
  expect(stderr).toMatch(new RegExp(`^error ${code}: `));
  expect(stderr).not.toContain("TEND_INTERNAL");
  expect(stderr).not.toMatch(/\n\s+at .*\.js:\d+/);
}

/** The stderr of plan, then apply, on `root` for `init`: each refused with one clean TEND_USAGE. */
async function usageRefusals(init: string, root: string, dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const command of ["plan", "apply"]) {
    const result = await tend([command, "--init", init, "--root", root], dir);
    expect(result.code, result.stderr).toBe(1);
    expectCleanError(result.stderr, "TEND_USAGE");
    found.push(result.stderr);
  }
  return found;
}

/** An image root whose user database has root alone (a Debian root: no `wheel`). */
async function rootWithRootOnly(dir: string): Promise<string> {
  const root = await imageRoot(dir, "root");
  await mkdir(join(root, "etc"));
  await writeFile(join(root, "etc/passwd"), "root:x:0:0::/root:/bin/sh\n");
  await writeFile(join(root, "etc/group"), "root:x:0:\n");
  return root;
}

const FILE = (name: string, path: string, content: string) => `tend: v1alpha1\ntype: File\nname: ${name}\npath: ${path}\ncontent: ${JSON.stringify(content)}\n`;

describe("the host's faults, met as clear errors", () => {
  it.each([[""], ["/"], ["//"]])("refuses --root %j: an unset variable must never mean the live host", async (root) => {
    const dir = await specDir(FILE("motd", "/etc/motd", "hi\n"));
    const result = await tend(["apply", "--init", "runit", "--root", root], dir);
    expect(result.code).toBe(1);
    expectCleanError(result.stderr, "TEND_USAGE");
    expect(result.stderr).toContain("names no image root");
  });

  // Without the check these applies would write into this machine's / : each runs in a private
  // mount namespace, tmpfs over /run (where the file goes) and /var/lib (where the state would).
  it.runIf(isRoot)("refuses a --root that leads to this host's own root: a link to /, /proc/self/root, a bind mount of /", async () => {
    const dir = await specDir(FILE("probe", "/run/tend-root-probe", "hi\n"));
    await symlink("/", join(dir, "image"));
    const bound = await imageRoot(dir, "bound");
    for (const root of [join(dir, "image"), "/proc/self/root", `${dir}/image/tmp/..`, bound]) {
      const apply = `${process.execPath} ${CLI} apply --init runit --root ${root}`;
      const script = `mount -t tmpfs tmpfs /run && mount -t tmpfs tmpfs /var/lib && mount --bind / ${bound} && ${apply}; code=$?; test -e /run/tend-root-probe && echo written; test -e /var/lib/tend && echo state; exit $code`;
      const result = await exec(["unshare", "-m", "sh", "-c", script], dir);
      expect(result.code, `apply --root ${root}`).toBe(1);
      expectCleanError(result.stderr, "TEND_USAGE");
      expect(result.stderr).toContain(`--root ${root} is this host's own root folder (it leads to /), not an image root`);
      expect(result.stdout).toBe("");
    }
  });

  it("refuses a --root that does not exist or is not a folder (a typo), for plan and apply, making nothing", async () => {
    const dir = await specDir(FILE("motd", "/etc/motd", "hi\n"));
    for (const [root, why] of [[join(dir, "imgae"), "does not exist"], [join(dir, "tend.yaml"), "is not a folder"], ["/dev/null", "is not a folder"]] as const) {
      for (const command of ["plan", "apply"]) {
        const result = await tend([command, "--init", "runit", "--root", root], dir);
        expect(result.code, `${command} --root ${root}`).toBe(1);
        expectCleanError(result.stderr, "TEND_USAGE");
        expect(result.stderr).toContain(`--root ${root} ${why}`);
      }
    }
    expect((await readdir(dir)).sort()).toEqual(["tend.yaml"]);
  });

  it.runIf(isRoot)("a disk without room for the apply: refused before anything changes, its removals included", async () => {
    const dir = await specDir(`${FILE("small", "/etc/small", "x\n")}---\n${FILE("old", "/etc/old", "old\n")}`);
    await writeFile(join(dir, "next.yaml"), `${FILE("small", "/etc/small", "x\n")}---\n${FILE("big", "/etc/big", "y".repeat(250_000))}`);
    const root = await imageRoot(dir, "root");
    const apply = (spec: string) => `${process.execPath} ${CLI} apply --init runit --root ${root} -f ${spec}`;
    const script = `mount -t tmpfs -o size=256k tmpfs ${root} && ${apply("tend.yaml")} >/dev/null && ${apply("next.yaml")}; code=$?; echo "left: $(cd ${root} && find etc -type f | sort | tr '\\n' ' ')"; exit $code`;
    const result = await exec(["unshare", "-m", "sh", "-c", script], dir);
    expect(result.code, result.stderr).toBe(1);
    expectCleanError(result.stderr, "TEND_DISK_FULL");
    expect(result.stderr).toMatch(/^error TEND_DISK_FULL: apply needs \d+ KiB and \d+ files? on the file system holding \/etc\/big, which has \d+ KiB and \d+ files free; nothing was changed\n/);
    // Before, the removal came first: /etc/old was deleted, then /etc/big met the full disk.
    expect(result.stdout.trim().split("\n").at(-1)).toBe("left: etc/old etc/small");
  });

  it.runIf(isRoot)("a disk that fills after the room check: TEND_DISK_FULL naming the file, and nothing of the batch lands (no partial file, no temp file)", async () => {
    const dir = await specDir(`${FILE("small", "/etc/small", "x\n")}---\n${FILE("big", "/etc/big", "y".repeat(300_000))}`);
    const root = await imageRoot(dir, "root");
    const journal = join(root, "var/lib/tend/state.journal");
    const log = join(dir, "strace.log");
    // The journal's first append comes after the room check and before the files are staged:
    // strace holds its fsync while the disk is filled to 100 kB of free space.
    const traced = `strace -qq -o ${log} -P ${journal} -e trace=openat,fsync -e inject=fsync:delay_enter=1000000 ${process.execPath} ${CLI} apply --init runit --root ${root}`;
    const fill = `until grep -q 'O_CREAT' ${log} 2>/dev/null || ! kill -0 $pid 2>/dev/null; do sleep 0.01; done; dd if=/dev/zero of=${root}/filler bs=1k count=$(( $(df -k --output=avail ${root} | tail -1) - 100 )) 2>/dev/null`;
    const script = `mount -t tmpfs -o size=1m tmpfs ${root} && { ${traced} & pid=$!; ${fill}; wait $pid; code=$?; echo "left: $(find ${root}/etc -type f -o -type l)"; exit $code; }`;
    const result = await exec(["unshare", "-m", "sh", "-c", script], dir);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain("error TEND_DISK_FULL: cannot write /etc/big: no space left on its device");
    expect(result.stderr).not.toContain("TEND_INTERNAL");
    expect(result.stderr).toContain("error TEND_DISK_FULL: not written, since the rest of its batch could not be: cannot write /etc/small");
    expect(result.stdout.trim().split("\n").at(-1)).toBe("left:");
  });

  it.runIf(isRoot)("a read-only file system: TEND_READ_ONLY, nothing changed", async () => {
    const dir = await specDir(FILE("motd", "/etc/motd", "hi\n"));
    const root = await imageRoot(dir, "root");
    const script = `mount -t tmpfs tmpfs ${root} && mkdir -p ${root}/etc ${root}/var/lib/tend && mount -o remount,ro ${root} && ${process.execPath} ${CLI} apply --init runit --root ${root}`;
    const result = await exec(["unshare", "-m", "sh", "-c", script], dir);
    expect(result.code).toBe(1);
    expectCleanError(result.stderr, "TEND_READ_ONLY");
  });

  it.runIf(isRoot)("plan writes nothing: on a read-only root (its cache there too) it plans a converged host and a change alike", async () => {
    const spec = (port: number) => `${FILE("conf", "/etc/web.conf", `port = ${port}\n`)}---\ntend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web\n`;
    const dir = await specDir(spec(1));
    await writeFile(join(dir, "edited.yaml"), spec(2));
    const root = await imageRoot(dir, "root");
    const plan = (file: string) => `TEND_CACHE_DIR=${root}/cache ${process.execPath} ${CLI} plan -f ${file} --init runit --root ${root} --detailed-exitcode`;
    const script = [
      `mount -t tmpfs tmpfs ${root}`,
      `${process.execPath} ${CLI} apply --init runit --root ${root} >/dev/null`,
      `mount -o remount,ro ${root}`,
      `${plan("tend.yaml")}; echo "converged: $?"`,
      `${plan("edited.yaml")}; echo "edited: $?"`,
    ].join(" && ");
    const result = await exec(["unshare", "-m", "sh", "-c", script], dir);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("converged: 0\n");
    expect(result.stdout).toMatch(/\n {2}~ file:conf {2}rewrite its files\n {2}0 to add, 1 to change, 0 to remove\nedited: 2\n$/);
  });

  it.runIf(isRoot)("no permission on the state or lock: TEND_PERMISSION with a hint", async () => {
    const dir = await specDir(FILE("motd", "/etc/motd", "hi\n"));
    const root = await imageRoot(dir, "root");
    await mkdir(join(root, "var/lib/tend"), { recursive: true, mode: 0o755 });
    const result = await tendAsNobody(["apply", "--init", "runit", "--root", root], dir);
    expect(result.code).toBe(1);
    expectCleanError(result.stderr, "TEND_PERMISSION");
    expect(result.stderr).toContain("hint");
  });

  it("a copy of an edit that cannot be made under backups/: the edited file is neither replaced nor deleted, the rest of the apply is done", async () => {
    const dir = await specDir(`${FILE("motd", "/etc/motd", "hi\n")}---\n${FILE("gone", "/etc/gone", "g\n")}---\n${FILE("other", "/etc/other", "o\n")}`);
    const root = await imageRoot(dir, "root");
    expect((await tend(["apply", "--init", "runit", "--root", root], dir)).code).toBe(0);
    await writeFile(join(root, "etc/motd"), "the admin's edit\n");
    await writeFile(join(root, "etc/gone"), "another edit\n");
    await writeFile(join(dir, "tend.yaml"), `${FILE("motd", "/etc/motd", "hi\n")}---\n${FILE("other", "/etc/other", "o2\n")}`);
    await writeFile(join(root, "var/lib/tend/backups"), "a file where the folder goes\n");
    const result = await tend(["apply", "--init", "runit", "--root", root, "--adopt"], dir);
    expect(result.code).toBe(1);
    expectCleanError(result.stderr, "TEND_UNSAFE_PATH");
    expect(await readFile(join(root, "etc/motd"), "utf8")).toBe("the admin's edit\n");
    expect(await readFile(join(root, "etc/gone"), "utf8")).toBe("another edit\n");
    expect(await readFile(join(root, "etc/other"), "utf8")).toBe("o2\n");
  });

  it("a File given to a user or group the host lacks: plan names the resource and field, apply writes nothing", async () => {
    const dir = await specDir(`${FILE("motd", "/etc/motd", "hi\n")}owner: root\n---\n${FILE("conf", "/etc/app.conf", "x\n")}owner: nosuch\n---\n${FILE("other", "/etc/other.conf", "y\n")}group: nogroup-here\n`);
    const root = await rootWithRootOnly(dir);
    for (const stderr of await usageRefusals("runit", root, dir)) {
      expect(stderr).toContain("error TEND_USAGE: unknown user `nosuch`\n  at ");
      expect(stderr).toMatch(/file:conf, field owner\n/);
      expect(stderr).toMatch(/unknown group `nogroup-here`\n  at .*file:other, field group\n/);
    }
    expect((await readdir(join(root, "etc"))).sort()).toEqual(["group", "passwd"]);
  });

  it("a group a provider gives its files that the host lacks (launchd's wheel in a Debian root): plan names the provider and the file, apply writes nothing", async () => {
    const service = (name: string) => `tend: v1alpha1\ntype: Service\nname: ${name}\nexec: /opt/${name}/bin/server\n`;
    const dir = await specDir(`${service("web")}---\n${service("db")}---\n${service("api")}`);
    const root = await rootWithRootOnly(dir);
    for (const stderr of await usageRefusals("launchd", root, dir)) {
      expect(stderr).toContain("error TEND_USAGE: unknown group `wheel`: the launchd provider gives /Library/LaunchDaemons/");
      expect(stderr).toContain(".plist (and the files of 2 more resources) to it\n");
      expect(stderr).toMatch(/ at .*service:web, provider launchd\n/);
      expect(stderr).not.toContain("field group");
      expect(stderr).toContain(`hint add the group to ${root}/etc/group; an image root's users and groups are its own`);
    }
    expect(await readdir(root)).not.toContain("Library");
    await writeFile(join(root, "etc/group"), "root:x:0:\nwheel:x:0:root\n");
    expect((await tend(["apply", "--init", "launchd", "--root", root], dir)).code).toBe(0);
    expect((await readdir(join(root, "Library/LaunchDaemons"))).length).toBe(3);
  });

  it.runIf(isRoot)("an image root closed to this user: TEND_PERMISSION naming the state, for plan, apply and observe", async () => {
    const dir = await specDir(FILE("motd", "/etc/motd", "hi\n"));
    const root = await imageRoot(dir, "root");
    await chmod(root, 0o700);
    for (const command of ["plan", "apply", "observe"]) {
      const result = await tendAsNobody([command, "--init", "runit", "--root", root], dir);
      expect(result.code, result.stderr).toBe(1);
      expectCleanError(result.stderr, "TEND_PERMISSION");
      expect(result.stderr).toMatch(/cannot look at \/var\/lib\/tend\/(state\.json|lock): permission denied/);
    }
  });

  it.runIf(isRoot)("a spec or inventory this user may not read, or reach: TEND_SPEC or TEND_FLEET_INVENTORY saying so, never TEND_INTERNAL or 'does not exist'", async () => {
    const dir = await specDir(FILE("motd", "/etc/motd", "hi\n"));
    await writeFile(join(dir, "tend.config.mjs"), "export default [];\n", { mode: 0o600 });
    await writeFile(join(dir, "hosts.yaml"), "hosts:\n  a: {}\n", { mode: 0o600 });
    await chmod(join(dir, "tend.yaml"), 0o600);
    const closed = join(dir, "closed");
    await mkdir(closed, { mode: 0o700 });
    await writeFile(join(closed, "tend.yaml"), FILE("motd", "/etc/motd", "hi\n"), { mode: 0o644 });
    for (const [file, code, args] of [
      ["tend.yaml", "TEND_SPEC", ["validate", "-f"]],
      ["tend.config.mjs", "TEND_SPEC", ["validate", "-f"]],
      ["closed/tend.yaml", "TEND_SPEC", ["validate", "-f"]],
      ["hosts.yaml", "TEND_FLEET_INVENTORY", ["plan", "-f", "tend.config.mjs", "--hosts"]],
    ] as const) {
      const result = await tendAsNobody([...args, join(dir, file)], dir);
      expect(result.code, result.stderr).toBe(1);
      expectCleanError(result.stderr, code);
      expect(result.stderr).toContain(`${join(dir, file)} cannot be read: permission denied (the file, or a folder on its way, is closed to this user)`);
    }
  });

  it.runIf(isRoot)("as root, a spec or inventory another user could change: refused, naming what they could change, and the host untouched", async () => {
    const dir = await specDir(FILE("motd", "/etc/motd", "hi\n"));
    const root = await imageRoot(dir, "root");
    await writeFile(join(dir, "hosts.yaml"), "hosts:\n  a: {}\n", { mode: 0o644 });
    await chmod(join(dir, "tend.yaml"), 0o664);
    for (const args of [["validate"], ["plan", "--init", "runit", "--root", root], ["apply", "--init", "runit", "--root", root]]) {
      const result = await tend([...args, "-f", join(dir, "tend.yaml")], dir);
      expect(result.code, result.stderr).toBe(1);
      expectCleanError(result.stderr, "TEND_SPEC");
      expect(result.stderr).toContain(`refusing to read ${join(dir, "tend.yaml")} as root: ${join(dir, "tend.yaml")} is writable by its group, who could change what root would run`);
    }
    expect(await readdir(root)).toEqual([]);
    await chmod(join(dir, "tend.yaml"), 0o644);
    await chown(join(dir, "hosts.yaml"), 65534, 65534);
    const fleet = await tend(["plan", "--hosts", join(dir, "hosts.yaml")], dir);
    expect(fleet.code, fleet.stderr).toBe(1);
    expectCleanError(fleet.stderr, "TEND_FLEET_INVENTORY");
    expect(fleet.stderr).toContain(`${join(dir, "hosts.yaml")} belongs to uid 65534, who could change what root would run`);
    // Its owner ran tend through sudo: they could be root anyway.
    await chown(join(dir, "tend.yaml"), 65534, 65534);
    const sudo = await exec(["env", "SUDO_UID=65534", process.execPath, CLI, "apply", "--init", "runit", "--root", root], dir);
    expect(sudo.code, sudo.stderr).toBe(0);
    expect(await readFile(join(root, "etc/motd"), "utf8")).toBe("hi\n");
  });

  it.each([
    ["SIGTERM", 143],
    ["SIGINT", 130],
    ["SIGHUP", 129],
  ] as const)("%s stops apply after its current step (exit %i), and the next apply finishes the job", async (signal, exitCode) => {
    const docs = Array.from({ length: 400 }, (_, i) => `tend: v1alpha1\ntype: Service\nname: s${i}\nexec: /opt/s/bin/run --id ${i}\n`);
    const dir = await specDir(docs.join("---\n"));
    const root = await imageRoot(dir, "root");
    const child = spawn(process.execPath, [CLI, "apply", "--init", "runit", "--root", root], { cwd: dir, env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes("to remove\n") && !child.killed) child.kill(signal);
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    expect(code).toBe(exitCode);
    expectCleanError(stderr, "TEND_INTERRUPTED");
    expect(stderr).toMatch(new RegExp(`apply stopped by ${signal} after`));
    expect(stderr).toMatch(/after (planning|recording the plan|writing files|telling the init|carrying out)/);
    expect(stderr).toContain("Run apply again to finish");
    const again = await tend(["apply", "--init", "runit", "--root", root], dir);
    expect(again.code).toBe(0);
    expect((await tend(["plan", "--init", "runit", "--root", root, "--detailed-exitcode"], dir)).code).toBe(0);
    expect((await readdir(join(root, "var/lib/tend"))).sort()).toEqual(["lock", "state.json"]);
  }, 60_000);

  it("a folder, link or FIFO where the state file goes: refused as damaged before anything is written, never read as no state", async () => {
    const dir = await specDir(`${FILE("motd", "/etc/motd", "hi\n")}---\ntend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web/bin/run\n`);
    for (const [what, make] of [
      ["a folder", (path: string) => mkdir(path)],
      ["a symlink (-> /var/lib/tend/old.json)", (path: string) => symlink("/var/lib/tend/old.json", path)],
      ["a device, FIFO or socket", (path: string) => exec(["mkfifo", path], dir)],
    ] as const) {
      const root = await imageRoot(dir, `root-${what.split(" ")[1]}`);
      await mkdir(join(root, "var/lib/tend"), { recursive: true });
      await make(join(root, "var/lib/tend/state.json"));
      for (const command of ["plan", "apply"]) {
        const result = await tend([command, "--init", "runit", "--root", root], dir);
        expect(result.code, result.stderr).toBe(1);
        expectCleanError(result.stderr, "TEND_STATE_DAMAGED");
        expect(result.stderr).toContain(`state.json is damaged: it is ${what}, not a file`);
      }
      expect(await readdir(root)).toEqual(["var"]);
    }
  });

  it("a current folder deleted since the shell entered it: TEND_USAGE where the spec is looked for there, and -f with an absolute path still works", async () => {
    const dir = await specDir(FILE("motd", "/etc/motd", "hi\n"));
    const root = await imageRoot(dir, "root");
    const fromGone = (args: string[]) => exec(["sh", "-c", `mkdir gone && cd gone && rmdir ../gone && exec "$@"`, "sh", process.execPath, CLI, ...args], dir);
    for (const args of [["validate"], ["plan", "--init", "runit", "--root", root], ["validate", "-f", "tend.yaml"]]) {
      const result = await fromGone(args);
      expect(result.code, result.stderr).toBe(1);
      expectCleanError(result.stderr, "TEND_USAGE");
      expect(result.stderr).toContain("the current folder no longer exists (ENOENT)");
    }
    const apply = await fromGone(["apply", "--init", "runit", "--root", root, "-f", join(dir, "tend.yaml")]);
    expect(apply.code, apply.stderr).toBe(0);
    expect(await readdir(join(root, "etc"))).toEqual(["motd"]);
  });

  it.runIf(isRoot && immutableFilesHere())("an immutable file (chattr +i): TEND_PERMISSION with root's reasons, not a hint to use sudo, and the rest of the apply done", async () => {
    const dir = await specDir(`${FILE("motd", "/etc/motd", "hi\n")}---\n${FILE("issue", "/etc/issue", "hello\n")}`);
    const root = await imageRoot(dir, "root");
    expect((await tend(["apply", "--init", "runit", "--root", root], dir)).code).toBe(0);
    await writeFile(join(dir, "tend.yaml"), `${FILE("motd", "/etc/motd", "changed\n")}---\n${FILE("issue", "/etc/issue", "changed\n")}`);
    await exec(["chattr", "+i", join(root, "etc/motd")], dir);
    try {
      const result = await tend(["apply", "--init", "runit", "--root", root], dir);
      expect(result.code).toBe(1);
      expectCleanError(result.stderr, "TEND_PERMISSION");
      expect(result.stderr).toContain("cannot write /etc/motd: permission denied");
      expect(result.stderr).toContain("hint tend runs as root here, so the file or its folder is protected otherwise: immutable or append-only (lsattr shows it, chattr -i lifts it)");
      expect(result.stderr).not.toContain("sudo");
      expect(await readFile(join(root, "etc/issue"), "utf8")).toBe("changed\n");
    } finally {
      await exec(["chattr", "-i", join(root, "etc/motd")], dir);
    }
  });

  it("output that cannot be written (stdout on /dev/full): every command still does its work, then says so with TEND_DISK_FULL and exits 1", async () => {
    const dir = await specDir(`${FILE("motd", "/etc/motd", "hi\n")}---\ntend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web/bin/run\n`);
    const root = await imageRoot(dir, "root");
    const full = (args: string[]) => exec(["sh", "-c", `"$@" >/dev/full`, "sh", process.execPath, CLI, ...args], dir);
    for (const args of [["validate"], ["plan"], ["plan", "--json"], ["plan", "--detailed-exitcode"], ["apply", "--json-stream"]]) {
      const result = await full(args[0] === "validate" ? args : [...args, "--init", "runit", "--root", root]);
      expect(result.code, `tend ${args.join(" ")}: ${result.stderr}`).toBe(1);
      expectCleanError(result.stderr, "TEND_DISK_FULL");
      expect(result.stderr).toContain("could not write to standard output (ENOSPC: no space left on device); tend finished the command");
    }
    // The apply went on, its log lost: the host is converged.
    expect((await tend(["plan", "--init", "runit", "--root", root, "--detailed-exitcode"], dir)).code).toBe(0);
  });

  it.runIf(isRoot)("an apply whose log fills its disk half-way carries on to the end, then says the rest of its output is lost", async () => {
    const docs = Array.from({ length: 300 }, (_, i) => FILE(`f${i}`, `/etc/many/f${i}.conf`, `n = ${i}\n`));
    const dir = await specDir(docs.join("---\n"));
    const root = await imageRoot(dir, "root");
    const logs = join(dir, "logs");
    await mkdir(logs);
    // A 4 KiB tmpfs holds the start of the log, not its ~17 KB.
    const script = `mount -t tmpfs -o size=4k tmpfs ${logs} && ${process.execPath} ${CLI} apply --init runit --root ${root} > ${logs}/apply.log; code=$?; echo "logged: $(wc -c < ${logs}/apply.log)"; exit $code`;
    const result = await exec(["unshare", "-m", "sh", "-c", script], dir);
    expect(result.code, result.stderr).toBe(1);
    expectCleanError(result.stderr, "TEND_DISK_FULL");
    expect(Number(/logged: (\d+)/.exec(result.stdout)?.[1])).toBe(4096);
    expect((await readdir(join(root, "etc/many"))).length).toBe(300);
    expect((await tend(["plan", "--init", "runit", "--root", root, "--detailed-exitcode"], dir)).code).toBe(0);
  }, 60_000);
});
