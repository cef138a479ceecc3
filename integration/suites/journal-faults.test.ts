import { chmod, mkdir, mkdtemp, open, readFile, stat, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pool } from "../support/pool.js";
import { expectSameRoot, snapshotRoot, type RootSnapshot } from "../support/root-snapshot.js";
import { journalAppends, runCommand, runKilledAt } from "../support/run-under-strace.js";

/**
 * The state journal after the faults one kill does not leave, each followed by an apply that is
 * killed too, once it has recorded steps of its own; the run after that must end exactly where an
 * uninterrupted apply does (see crash-consistency.test.ts for one kill at every system call):
 * - a power cut before an append was synced: the append cut short, or blocks of it never written
 *   (a file system that had already grown the file reads them back as NULs), with lines of the
 *   same append after them;
 * - a save killed after it wrote state.json, before it removed the journal it had folded in;
 * - the first append killed before its write: the journal made, and empty.
 * Before, the next apply appended to such a journal: to a cut-short line, which glued its first
 * record to it, after a `begin` older than the state, which a replay skips whole, or into an
 * empty journal, with no `begin` at all. Killed in turn, it left a state that was damaged, or
 * that had lost what it wrote.
 */

const CLI = new URL("../../packages/cli/dist/bin.js", import.meta.url).pathname;
const JOURNAL = "var/lib/tend/state.journal";

const doc = (fields: string) => `tend: v1alpha1\n${fields.trim()}\n`;
const CONF = (port: number) => doc(`type: File\nname: conf\npath: /etc/web/web.conf\ncontent: "port = ${port}\\n"`);
const WEB = doc(`type: Service\nname: web\nexec: /opt/web/bin/server --config /etc/web/web.conf\nrestartOn:\n  - File[conf]`);
const WORKER = doc(`type: Service\nname: worker\nexec: /opt/worker/bin/run\nafter: [web]`);
const BACKUP = (schedule: string) => doc(`type: Timer\nname: backup\nexec: /opt/backup/bin/run --all\nschedule: "${schedule}"`);
const REPORT = doc(`type: Service\nname: report\nexec: /opt/report/bin/run`);
const FIRST = [CONF(8080), WEB, WORKER, BACKUP("30 2 * * *")];
const SECOND = [CONF(9090), WEB, BACKUP("0 3 * * *"), REPORT];

/** The journal is core's, the same on every init: runit's offline apply runs no command, the fastest. */
const INITS = ["runit"] as const;
type Init = (typeof INITS)[number];

/** What a power cut leaves of an append that was written but not synced. */
const DAMAGES = {
  "cut short": async (file: string, bytes: number) => truncate(file, (await stat(file)).size - Math.ceil(bytes / 2)),
  "with blocks never written": async (file: string, bytes: number) => {
    const size = (await stat(file)).size;
    const start = size - bytes + Math.floor(bytes / 4);
    const handle = await open(file, "r+");
    await handle.write(Buffer.alloc(Math.max(1, Math.floor(bytes / 2))), 0, undefined, start);
    await handle.close();
  },
} as const;


async function workspace(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "tend-journal-"));
  await chmod(dir, 0o755);
  await writeFile(join(dir, "first.yaml"), FIRST.join("---\n"));
  await writeFile(join(dir, "second.yaml"), SECOND.join("---\n"));
  const base = join(dir, "base");
  for (const folder of ["etc/runit/runsvdir/default", "etc/cron.d", "etc/systemd/system", "usr/sbin"]) await mkdir(join(base, folder), { recursive: true });
  await writeFile(join(base, "usr/sbin/cron"), "#!/bin/sh\n", { mode: 0o755 });
  return dir;
}

const copy = (from: string, to: string) => runCommand(["cp", "-a", from, to], "/");
const apply = (init: Init, root: string, spec: string) => [process.execPath, CLI, "apply", "-f", spec, "--init", init, "--root", root];


/** The root an uninterrupted apply of each of `specs` in turn leaves, from `dir`'s base. */
async function goldenAfter(init: Init, dir: string, specs: string[]): Promise<RootSnapshot> {
  const goldenRoot = join(dir, "golden");
  await copy(join(dir, "base"), goldenRoot);
  for (const spec of specs) await clean(init, goldenRoot, join(dir, spec), dir);
  return snapshotRoot(goldenRoot);
}

async function clean(init: Init, root: string, spec: string, dir: string): Promise<void> {
  const run = await runCommand(apply(init, root, spec), dir);
  expect(run.code, run.stderr).toBe(0);
}

/**
 * Applies `spec` to `root` and kills it as it syncs the last of its journal's appends (its records
 * written, its save not made), or lets it finish when it appends nothing; then applies it again,
 * which must end where `golden` is.
 */
async function killedAgainThenRerun(init: Init, dir: string, root: string, spec: string, golden: RootSnapshot, what: string): Promise<void> {
  const counted = `${root}-counted`;
  await copy(root, counted);
  const { appends } = await journalAppends(apply(init, counted, spec), dir, `${root}.trace`, join(counted, JOURNAL));
  // Killed as it syncs its last append: everything recorded, nothing saved.
  const last = appends.at(-1)?.fsync;
  const second = last ? await runKilledAt(apply(init, root, spec), dir, { ...last, path: join(root, JOURNAL) }) : await runCommand(apply(init, root, spec), dir);
  expect(second.stderr, `${what}, the second apply`).not.toContain("TEND_");
  const third = await runCommand(apply(init, root, spec), dir);
  expect(third.code, `${what}, the third apply: ${third.stderr}`).toBe(0);
  expectSameRoot(await snapshotRoot(root), golden, what);
}

describe.each(INITS)("the state journal after a power cut or a killed save, on %s, and an apply killed after it", (init) => {
  for (const [scenario, before, spec] of [
    ["a fresh apply", undefined, "first.yaml"],
    ["an apply that changes, adds and removes", "first.yaml", "second.yaml"],
  ] as const) {
    it(`${scenario}: cut at each of its journal's appends before the sync, the apply after it killed too, the next run ends where an uninterrupted apply does`, async () => {
      const dir = await workspace();
      const base = join(dir, "base");
      if (before) await clean(init, base, join(dir, before), dir);
      const goldenRoot = join(dir, "golden");
      await copy(base, goldenRoot);
      await clean(init, goldenRoot, join(dir, spec), dir);
      const golden = await snapshotRoot(goldenRoot);

      const counted = join(dir, "counted");
      await copy(base, counted);
      const { appends, run } = await journalAppends(apply(init, counted, join(dir, spec)), dir, join(dir, "trace"), join(counted, JOURNAL));
      expect(run.code, run.stderr).toBe(0);
      // The plan's intents, then each step's record; every one synced before the next is written.
      expect(appends.length).toBeGreaterThanOrEqual(3);
      const cases = appends.flatMap((append, index) => Object.entries(DAMAGES).map(([damage, inflict]) => ({ append, index, damage, inflict })));
      await pool(cases, async ({ append, index, damage, inflict }) => {
        const what = `append ${index + 1} of ${appends.length} ${damage}`;
        const root = join(dir, `a${index}-${damage.split(" ")[0]}`);
        await copy(base, root);
        const first = await runKilledAt(apply(init, root, join(dir, spec)), dir, { ...append.fsync, path: join(root, JOURNAL) });
        expect(first.signal ?? first.code, what).not.toBe(0);
        await inflict(join(root, JOURNAL), append.bytes);
        await killedAgainThenRerun(init, dir, root, join(dir, spec), golden, what);
      });
    }, 600_000);
  }

  it("the first append killed before its write (an empty journal), then the rerun killed after its records: the next run ends where an uninterrupted apply does", async () => {
    const dir = await workspace();
    const base = join(dir, "base");
    const golden = await goldenAfter(init, dir, ["first.yaml"]);
    const counted = join(dir, "counted");
    await copy(base, counted);
    const { appends } = await journalAppends(apply(init, counted, join(dir, "first.yaml")), dir, join(dir, "trace"), join(counted, JOURNAL));
    const root = join(dir, "root");
    await copy(base, root);
    const killed = await runKilledAt(apply(init, root, join(dir, "first.yaml")), dir, { ...appends[0]!.write, path: join(root, JOURNAL) });
    expect(killed.signal ?? killed.code).not.toBe(0);
    expect(await readFile(join(root, JOURNAL), "utf8")).toBe("");
    await killedAgainThenRerun(init, dir, root, join(dir, "first.yaml"), golden, "an empty journal");
  }, 300_000);

  it("a save killed between writing state.json and removing the journal, then a changing apply killed after its records: the next run ends where uninterrupted applies do", async () => {
    const dir = await workspace();
    const base = join(dir, "base");
    const golden = await goldenAfter(init, dir, ["first.yaml", "second.yaml"]);

    const root = join(dir, "root");
    await copy(base, root);
    await copy(base, join(dir, "counted-unlinks"));
    await runCommand(["strace", "-qq", "-o", join(dir, "unlinks"), "-e", "trace=unlink", ...apply(init, join(dir, "counted-unlinks"), join(dir, "first.yaml"))], dir);
    const calls = (await readFile(join(dir, "unlinks"), "utf8")).split("\n").filter((line) => line.startsWith("unlink("));
    const nth = calls.findIndex((line) => line.includes("/state.journal")) + 1;
    expect(nth).toBeGreaterThan(0);
    const killed = await runKilledAt(apply(init, root, join(dir, "first.yaml")), dir, { call: "unlink", nth });
    expect(killed.signal ?? killed.code).not.toBe(0);
    // state.json is saved, and the journal it folded in is still there.
    expect(JSON.parse(await readFile(join(root, "var/lib/tend/state.json"), "utf8")).serial).toBe(1);
    expect((await readFile(join(root, JOURNAL), "utf8")).startsWith('{"t":"begin","serial":0}')).toBe(true);
    await killedAgainThenRerun(init, dir, root, join(dir, "second.yaml"), golden, "a stale journal");
  }, 300_000);
});
