import { chmod, mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCommand, type Run } from "../support/run-under-strace.js";

/**
 * A file an admin edits while apply runs — after apply's plan (under the lock) read it, before
 * apply replaces or deletes it — is left as the admin wrote it: the edit is made in the window
 * itself, held open by strace delaying apply's own system calls, and the apply fails naming the
 * file. The next apply sees the edit, as any edit, and replaces the file only after keeping a
 * copy (reliability #35).
 */

const CLI = new URL("../../packages/cli/dist/bin.js", import.meta.url).pathname;
const doc = (fields: string) => `tend: v1alpha1\n${fields.trim()}\n`;
const CONF = (port: number) => doc(`type: File\nname: conf\npath: /etc/web/web.conf\ncontent: "port = ${port}\\n"`);
const OTHER = doc(`type: File\nname: other\npath: /etc/web/other.conf\ncontent: "other\\n"`);
const EDIT = "port = 7777 # the admin's edit\n";
/** How long strace holds each delayed call: the test needs a few milliseconds of it. */
const DELAY_US = 1_000_000;

async function workspace(): Promise<{ dir: string; root: string; spec: string }> {
  const dir = await mkdtemp(join(tmpdir(), "tend-edit-"));
  await chmod(dir, 0o755);
  const root = join(dir, "root");
  for (const sub of ["etc/runit/runsvdir/default", "etc/cron.d", "usr/sbin"]) await mkdir(join(root, sub), { recursive: true });
  await writeFile(join(root, "usr/sbin/cron"), "#!/bin/sh\n", { mode: 0o755 });
  return { dir, root, spec: join(dir, "tend.yaml") };
}

const applyArgv = (root: string, spec: string) => [process.execPath, CLI, "apply", "-f", spec, "--init", "runit", "--root", root];

const STATS = "statx,newfstatat,lstat";

/**
 * Runs apply under strace, watching only `target`, and edits the file once strace's log shows
 * the plan's read of it closed. strace holds every later look at it (`lstat`, `fstat`: the third
 * on) for a while, so the edit lands after the plan read the file and before apply looks at it
 * again to replace or delete it.
 */
async function applyEditingMeanwhile(argv: string[], cwd: string, target: string, edit: () => Promise<void>): Promise<{ run: Run; edited: boolean }> {
  const log = join(cwd, "strace.log");
  await writeFile(log, "");
  const traced = ["strace", "-qq", "-o", log, "-P", target, "-e", `trace=${STATS},openat,close`, "-e", `inject=${STATS}:delay_enter=${DELAY_US}:when=3+`, ...argv];
  const running = runCommand(traced, cwd);
  let finished = false;
  void running.then(() => (finished = true));
  let edited = false;
  while (!finished && !edited) {
    if ((await readFile(log, "utf8")).includes("close(")) {
      await edit();
      edited = true;
    } else {
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
  }
  return { run: await running, edited };
}

async function backupsOf(root: string, rel: string): Promise<string[]> {
  const dir = join(root, "var/lib/tend/backups");
  const copies: string[] = [];
  for (const stamp of await readdir(dir).catch(() => [])) {
    const copy = await readFile(join(dir, stamp, "file", rel), "utf8").catch(() => undefined);
    if (copy !== undefined) copies.push(copy);
  }
  return copies;
}

/**
 * Applies `before`, then `after` while the admin edits /etc/web/web.conf (see
 * applyEditingMeanwhile), and checks that the apply failed naming the file with `action` and left
 * the edit in place. Returns the workspace for what follows.
 */
async function editDuringApply(before: string, after: string, action: "overwrite" | "delete") {
  const ws = await workspace();
  const { dir, root, spec } = ws;
  await writeFile(spec, before);
  const first = await runCommand(applyArgv(root, spec), dir);
  expect(first.code, first.stderr).toBe(0);
  await writeFile(spec, after);
  const target = join(root, "etc/web/web.conf");
  const { run, edited } = await applyEditingMeanwhile(applyArgv(root, spec), dir, target, () => writeFile(target, EDIT));
  expect(edited, "the edit was made while apply ran").toBe(true);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(run.stderr).toContain(`did not ${action} /etc/web/web.conf: it changed after this apply read it`);
  expect(await readFile(target, "utf8")).toBe(EDIT);
  expect((await readdir(join(root, "etc/web"))).filter((name) => name.includes(".tend-"))).toEqual([]);
  return ws;
}

describe("a file edited while apply runs, after its plan read it", () => {
  it("is not overwritten: the apply fails naming it, and the next apply keeps the edit as a backup before replacing it", async () => {
    const { dir, root, spec } = await editDuringApply(CONF(8080), CONF(9090), "overwrite");
    const again = await runCommand(applyArgv(root, spec), dir);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("wrote /etc/web/web.conf (it was edited; the edited copy is kept under backups/)");
    expect(await readFile(join(root, "etc/web/web.conf"), "utf8")).toBe("port = 9090\n");
    expect(await backupsOf(root, "etc/web/web.conf")).toEqual([EDIT]);
  }, 60_000);

  it("is not deleted when its resource leaves the spec: the apply fails naming it, and it stays the admin's", async () => {
    const { dir, root, spec } = await editDuringApply([CONF(8080), OTHER].join("---\n"), OTHER, "delete");
    // Now the plan sees the edit: deleting it takes --adopt, as for any edited file tend wrote.
    const plan = await runCommand([process.execPath, CLI, "plan", "-f", spec, "--init", "runit", "--root", root], dir);
    expect(plan.stdout).toContain("/etc/web/web.conf was edited since tend wrote it");
    const adopt = await runCommand([...applyArgv(root, spec), "--adopt"], dir);
    expect(adopt.code, adopt.stderr).toBe(0);
    expect(await backupsOf(root, "etc/web/web.conf")).toEqual([EDIT]);
  }, 60_000);
});
