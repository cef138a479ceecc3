import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Timer } from "@tend/core";
import { applyContext } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import provider from "./index.js";
import { CRON_NOT_RUNNING, runningCron } from "./running-cron.js";

const TIMER: Timer = { type: "timer", name: "gc", exec: "/usr/local/bin/tend gc", schedule: "@weekly" };

/** A host whose pid file names pid 321, which runs `comm` in state `state` (no pid file: comm undefined). */
async function host(comm: string | undefined, state = "S", offline = false) {
  const ctx = await applyContext({ init: "runit", offline });
  if (comm !== undefined) {
    await mkdir(join(ctx.rootDir, "proc/321"), { recursive: true });
    await mkdir(join(ctx.rootDir, "run"), { recursive: true });
    await writeFile(join(ctx.rootDir, "run/crond.pid"), "321\n");
    await writeFile(join(ctx.rootDir, "proc/321/stat"), `321 (${comm}) ${state} 1 321 321 0 -1\n`);
  }
  return ctx;
}

describe("runningCron", () => {
  it("is the live cron or crond its pid file names, and none for another program, a zombie or no pid file", async () => {
    expect(await runningCron(await host("cron"))).toEqual({ pid: "321", stat: "321 (cron) S 1 321 321 0 -1\n" });
    expect((await runningCron(await host("crond")))?.pid).toBe("321");
    expect(await runningCron(await host("sshd"))).toBeNull();
    expect(await runningCron(await host("cron", "Z"))).toBeNull();
    expect(await runningCron(await host(undefined))).toBeNull();
    // An image root runs nothing: there is nothing to tell.
    expect(await runningCron(await host(undefined, "S", true))).toBeUndefined();
  });

  it("on the host tend runs on, finds a cron whose pid file is gone in /proc, and none once it is a zombie; a fleet host is not searched", async () => {
    const ctx = await host(undefined);
    // This machine's own /proc shows the test hosts' processes too (their crons included): a
    // made-up /proc, read as the host tend runs on would be.
    const local = { ...ctx, files: Object.assign(Object.create(ctx.files) as typeof ctx.files, { local: true }) };
    const proc = (pid: number, comm: string, state = "S") => mkdir(join(ctx.rootDir, `proc/${pid}`), { recursive: true }).then(() => writeFile(join(ctx.rootDir, `proc/${pid}/stat`), `${pid} (${comm}) ${state} 1\n`));
    await proc(1, "runsvdir");
    await proc(55, "cronolog");
    await proc(77, "cron");
    await writeFile(join(ctx.rootDir, "proc/stat"), "btime 1\n");
    expect((await runningCron(local))?.pid).toBe("77");
    expect(await runningCron(ctx), "not the host tend runs on").toBeNull();
    await proc(77, "cron", "Z");
    expect(await runningCron(local)).toBeNull();
  });
});

describe("a timer's observation where no cron runs", () => {
  it("warns on a live host with no running cron, not where cron runs or in an image root, nor in an apply's check", async () => {
    const warnings = async (ctx: Awaited<ReturnType<typeof host>>, purpose?: "check") => (await provider.observe([TIMER], purpose ? { ...ctx, purpose } : ctx)).get("timer:gc")?.warnings;
    expect(await warnings(await host(undefined))).toEqual([CRON_NOT_RUNNING]);
    expect(await warnings(await host("sshd"))).toEqual([CRON_NOT_RUNNING]);
    expect(await warnings(await host("cron"))).toBeUndefined();
    expect(await warnings(await host(undefined, "S", true))).toBeUndefined();
    expect(await warnings(await host(undefined), "check")).toBeUndefined();
  });
});
