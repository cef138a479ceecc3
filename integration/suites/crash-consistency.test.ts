import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pool } from "../support/pool.js";
import { expectSameRoot, snapshotRoot } from "../support/root-snapshot.js";
import { killPoints, runCommand, runKilledAt } from "../support/run-under-strace.js";

/**
 * Crash consistency, proven by injecting the crash: tend applies into an image root (runit and
 * systemd, whose offline apply runs `systemctl --root`) with SIGKILL injected by strace at its
 * k-th mutating system call — every write, rename, fsync, folder, link and command — for every
 * k a clean apply reaches. Each killed apply is run again; the root must end exactly as after an
 * uninterrupted apply: the same files, modes and links, the same state (every file tend wrote
 * recorded, so a later removal deletes exactly those) and no temp file or journal left. Then
 * apply is killed at random moments of a 200-service apply, and run again.
 */

const CLI = new URL("../../packages/cli/dist/bin.js", import.meta.url).pathname;

const doc = (fields: string) => `tend: v1alpha1\n${fields.trim()}\n`;
const CONF = (port: number) => doc(`type: File\nname: conf\npath: /etc/web/web.conf\ncontent: "port = ${port}\\n"`);
const WEB = doc(`type: Service\nname: web\nexec: /opt/web/bin/server --config /etc/web/web.conf\nrestart: on_failure\nrestartOn:\n  - File[conf]`);
const WORKER = doc(`type: Service\nname: worker\nexec: /opt/worker/bin/run\nafter: [web]`);
const BACKUP = (schedule: string) => doc(`type: Timer\nname: backup\nexec: /opt/backup/bin/run --all\nschedule: "${schedule}"`);
const REPORT = doc(`type: Service\nname: report\nexec: /opt/report/bin/run\ndesired: { state: running, enabled: false }`);

/** A file, two services (one with restartOn) and a timer; then a change of each kind. */
const FIRST = [CONF(8080), WEB, WORKER, BACKUP("30 2 * * *")];
const SECOND = [CONF(9090), WEB, BACKUP("0 3 * * *"), REPORT];

const INITS = ["runit", "systemd"] as const;
type Init = (typeof INITS)[number];

async function workspace(docs: string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "tend-crash-"));
  await chmod(dir, 0o755);
  await writeFile(join(dir, "tend.yaml"), docs.join("---\n"));
  return dir;
}

/** An image root as packages leave it: the folders tend's providers expect, and a cron daemon. */
async function emptyRoot(path: string): Promise<void> {
  for (const dir of ["etc/runit/runsvdir/default", "etc/cron.d", "etc/systemd/system", "usr/sbin"]) await mkdir(join(path, dir), { recursive: true });
  await writeFile(join(path, "usr/sbin/cron"), "#!/bin/sh\n", { mode: 0o755 });
}

const copy = (from: string, to: string) => runCommand(["cp", "-a", from, to], "/");
const apply = (init: Init, root: string, spec: string, cwd: string) => [process.execPath, CLI, "apply", "-f", spec, "--init", init, "--root", root];



describe.each(INITS)("an apply into a %s root killed at every mutating system call", (init) => {
  for (const [scenario, before, after] of [
    ["a fresh apply", [], FIRST],
    ["an apply that changes, adds and removes", FIRST, SECOND],
  ] as const) {
    it(`${scenario}: a rerun ends exactly where an uninterrupted apply does`, async () => {
      const dir = await workspace(after as string[]);
      await writeFile(join(dir, "before.yaml"), (before as string[]).join("---\n"));
      const base = join(dir, "base");
      await emptyRoot(base);
      if (before.length > 0) {
        const prepared = await runCommand(apply(init, base, join(dir, "before.yaml"), dir), dir);
        expect(prepared.code, prepared.stderr).toBe(0);
      }
      const goldenRoot = join(dir, "golden");
      await copy(base, goldenRoot);
      const clean = await runCommand(apply(init, goldenRoot, join(dir, "tend.yaml"), dir), dir);
      expect(clean.code, clean.stderr).toBe(0);
      const golden = await snapshotRoot(goldenRoot);
      expect(golden.leftovers).toEqual([]);

      const counted = join(dir, "counted");
      await copy(base, counted);
      const { points, run } = await killPoints(apply(init, counted, join(dir, "tend.yaml"), dir), dir, join(dir, "trace"));
      expect(run.code, run.stderr).toBe(0);
      expect(points.length).toBeGreaterThan(40);
      // Writes, renames and syncs of files and of the journal; on systemd also the commands it runs.
      const calls = new Set(points.map((p) => p.call));
      for (const call of ["write", "rename", "fsync", ...(init === "systemd" ? ["clone"] : [])]) expect(calls.has(call), call).toBe(true);

      let killed = 0;
      await pool(points, async (point) => {
        const where = `${point.call} #${point.nth}`;
        const root = join(dir, `k-${point.call}-${point.nth}`);
        await copy(base, root);
        const first = await runKilledAt(apply(init, root, join(dir, "tend.yaml"), dir), dir, point);
        if (first.signal === "SIGKILL" || first.code === 137) killed += 1;
        const rerun = await runCommand(apply(init, root, join(dir, "tend.yaml"), dir), dir);
        expect(rerun.code, `killed at ${where}, the rerun: ${rerun.stderr}`).toBe(0);
        expect(rerun.stderr).not.toContain("TEND_INTERNAL");
        expectSameRoot(await snapshotRoot(root), golden, `killed at ${where}`);
        await runCommand(["rm", "-rf", root], "/");
      });
      // Every point a clean run reaches is reached again (tend's own thread is deterministic);
      // allow for a stray write on the way out.
      expect(killed).toBeGreaterThanOrEqual(points.length - 3);
    }, 900_000);
  }

  it("a 200-service apply killed at random moments converges when run again", async () => {
    const services = Array.from({ length: 200 }, (_, i) => doc(`type: Service\nname: svc${i}\nexec: /opt/svc/bin/run --id ${i}${i % 10 === 1 ? `\nafter: [svc${i - 1}]` : ""}`));
    const dir = await workspace([CONF(8080), ...services]);
    const base = join(dir, "base");
    await emptyRoot(base);
    const goldenRoot = join(dir, "golden");
    await copy(base, goldenRoot);
    const started = Date.now();
    const clean = await runCommand(apply(init, goldenRoot, join(dir, "tend.yaml"), dir), dir);
    const duration = Date.now() - started;
    expect(clean.code, clean.stderr).toBe(0);
    const golden = await snapshotRoot(goldenRoot);
    for (let trial = 0; trial < 8; trial += 1) {
      const root = join(dir, `r${trial}`);
      await copy(base, root);
      const delay = 80 + Math.random() * duration;
      const child = spawn(process.execPath, [CLI, "apply", "--init", init, "--root", root], { cwd: dir, stdio: "ignore" });
      const timer = setTimeout(() => child.kill("SIGKILL"), delay);
      await new Promise((resolve) => child.on("exit", resolve));
      clearTimeout(timer);
      const rerun = await runCommand(apply(init, root, join(dir, "tend.yaml"), dir), dir);
      expect(rerun.code, `killed after ${Math.round(delay)} ms: ${rerun.stderr}`).toBe(0);
      expectSameRoot(await snapshotRoot(root), golden, `killed after ${Math.round(delay)} ms`);
    }
  }, 300_000);
});
