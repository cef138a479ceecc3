import { spawnSync, type ChildProcess } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
import { chmod, chown, lchown, mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LocalHostFiles, ProcessRunner, type ApplyContext, type Scope } from "@tend/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSvStatus } from "./read-sv-status.js";
import { svBatch } from "./sv-batch.js";
import { startRunsvdir, stopRunsvdir } from "./__fixtures__/private-runsvdir.js";

/**
 * Root applying `--user NAME` reaches that user's runit services, whose folders (and the
 * `supervise` folder their runsv makes) the user owns and may change at will: a link planted
 * where runsv's FIFOs are must not make root write a control letter into a file of root's, or
 * open what root may open and the user may not. Here the user is `nobody`, with a runsvdir of
 * its own; the test runs as root (CI's and this machine's user).
 */
const NOBODY = { uid: 65534, gid: 65534 };
const missing = ["runsvdir", "sv"].filter((tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0);
const why = process.getuid?.() !== 0 ? " (skipped: needs root, to act for another user)" : missing.length > 0 ? ` (skipped: no ${missing.join(", ")})` : "";

/** A service of NOBODY's under a runsvdir of NOBODY's, and the context of root applying `--user nobody`. */
async function nobodysService(): Promise<{ base: string; service: string; runsvdir: ChildProcess; ctx: ApplyContext }> {
  const base = await mkdtemp(join(tmpdir(), "tend-runit-as-user-"));
  await chmod(base, 0o755);
  const home = join(base, "home");
  const service = join(home, ".local/service/tend-web");
  await mkdir(service, { recursive: true });
  await writeFile(join(service, "run"), "#!/bin/sh\nexec sleep 1000\n", { mode: 0o755 });
  for (const path of [home, join(home, ".local"), join(home, ".local/service"), service, join(service, "run")]) await chown(path, NOBODY.uid, NOBODY.gid);
  const scope: Scope = { kind: "user", user: "nobody", ...NOBODY, home };
  const ctx: ApplyContext = {
    host: { name: "live", init: "runit", os: "linux", arch: process.arch, user: "root", home: "/root" },
    init: "runit",
    scope,
    run: new ProcessRunner(),
    files: new LocalHostFiles(undefined, scope) as unknown as ApplyContext["files"],
    offline: false,
    state: { get: () => undefined, set: () => undefined },
    log: () => undefined,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
  return { base, service, runsvdir: startRunsvdir(join(home, ".local/service"), NOBODY), ctx };
}

describe.skipIf(why !== "")(`a user's services, reached by root${why}`, () => {
  let live: Awaited<ReturnType<typeof nobodysService>>;
  let service: string;
  let ctx: ApplyContext;

  beforeAll(async () => {
    live = await nobodysService();
    ({ service, ctx } = live);
    await until("runsv to start the service", async () => (await readSvStatus([service], ctx)).get(service)?.line.startsWith("run: ") === true);
  });

  afterAll(async () => {
    await stopRunsvdir(live?.runsvdir);
    if (live) await rm(live.base, { recursive: true, force: true });
  });

  /** Polls until `check` holds (runsv acts on a letter when it next reads its FIFO). */
  async function until(what: string, check: () => Promise<boolean>): Promise<void> {
    for (const deadline = Date.now() + 15_000; !(await check()); await new Promise((resolve) => setTimeout(resolve, 100))) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    }
  }

  /** Puts a link, owned by the user, where runsv's `supervise/NAME` is; returns how to put the FIFO back. */
  async function plant(name: "ok" | "control", target: string): Promise<() => Promise<void>> {
    const fifo = join(service, "supervise", name);
    await rename(fifo, `${fifo}.runsv`);
    await symlink(target, fifo);
    await lchown(fifo, NOBODY.uid, NOBODY.gid);
    return async () => {
      await rm(fifo);
      await rename(`${fifo}.runsv`, fifo);
    };
  }

  it("writes no control letter through a link the user planted into a file of root's", async () => {
    const victim = join(live.base, "victim");
    await writeFile(victim, "precious\n", { mode: 0o644 });
    const restore = await plant("control", victim);
    try {
      const failures = await svBatch(ctx, ["term"], [{ key: "service:web", dir: service }]);
      expect(await readFile(victim, "utf8")).toBe("precious\n");
      expect(String((failures.get("service:web") as Error | undefined)?.message)).toContain(`unable to open supervise/control: access denied`);
    } finally {
      await restore();
    }
    // The FIFO back in place: the letter reaches runsv as before, sent as the user.
    expect([...(await svBatch(ctx, ["pause"], [{ key: "service:web", dir: service }])).keys()]).toEqual([]);
    await until("runsv to pause it", async () => (await readSvStatus([service], ctx)).get(service)?.line.endsWith(", paused") === true);
    expect([...(await svBatch(ctx, ["cont"], [{ key: "service:web", dir: service }])).keys()]).toEqual([]);
    await until("runsv to let it go on", async () => (await readSvStatus([service], ctx)).get(service)?.line.endsWith(", paused") === false);
  });

  it("reads the status as the user: a link to a FIFO only root may open is not opened", async () => {
    const fifo = join(live.base, "roots-fifo");
    spawnSync("mkfifo", ["-m", "600", fifo]);
    // A reader, so that a writer's open would succeed for whoever may open it.
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const restore = await plant("ok", fifo);
    try {
      const status = (await readSvStatus([service], ctx)).get(service);
      expect(status?.line).toBe(`warning: ${service}: unable to open supervise/ok: access denied`);
    } finally {
      closeSync(reader);
      await restore();
    }
    expect((await readSvStatus([service], ctx)).get(service)?.line).toMatch(/^run: .*\(pid \d+\)/);
  });
});
