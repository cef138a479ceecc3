import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ResourceChange, Timer } from "@tend/core";
import { applyContext, describeConformance, renderContext } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { FakeCrontab } from "./__fixtures__/fake-crontab.js";
import { PROGRAMS, writePrograms } from "./__fixtures__/write-programs.js";
import provider, { createCronProvider } from "./index.js";
import { CRON_NOT_RUNNING } from "./running-cron.js";

const timer = (fields: Partial<Timer>): Timer => ({ type: "timer", name: "gc", exec: "/usr/local/bin/tend gc", schedule: "@weekly", ...fields });
const change = (resource: Timer, action: ResourceChange["action"], ops: ResourceChange["ops"]): ResourceChange => ({
  key: `timer:${resource.name}`,
  action,
  resource,
  ops,
  filesChanged: true,
  reasons: [],
});

describeConformance({
  provider: createCronProvider({ asRoot: true }),
  packageJson: new URL("../package.json", import.meta.url),
  init: "runit",
  async prepareRoot(root) {
    await writePrograms(root, { "/usr/sbin/cron": PROGRAMS.debianCron });
    await mkdir(join(root, "etc/cron.d"), { recursive: true });
  },
});

describe("the cron provider", () => {
  it("serves timers as a fallback, on any init that has none of its own", () => {
    expect(provider.serves).toEqual({ inits: [], types: ["timer"], fallback: true });
    expect(provider.capabilities).toEqual({ timer: { userTimers: true, skippedTimes: "run-after" } });
    expect(Object.keys(provider.stores ?? {})).toEqual(["crontab-block"]);
  });

  it("renders a system timer as a cron.d file and a user timer as a block in that user's crontab", () => {
    expect(provider.render(timer({}), renderContext({ init: "runit" })).map((a) => a.path)).toEqual(["/etc/cron.d/tend-gc"]);
    const [block] = provider.render(timer({ name: "backup", user: true }), renderContext({ init: "openrc", scope: "user" }));
    expect(block).toMatchObject({ store: "crontab-block", path: "crontab alice: tend:backup" });
  });

  it("is pure: the same timer renders the same bytes", () => {
    const t = timer({ env: { B: "2", A: "1" }, exec: "date +%s" });
    expect(provider.render(t, renderContext({ init: "s6" }))).toEqual(provider.render(structuredClone(t), renderContext({ init: "s6" })));
  });

  it("checks names (schedules are the spec's own check)", () => {
    expect(provider.check?.(timer({ name: "backup.daily" }), renderContext({ init: "dinit" })).map((e) => e.message)).toEqual([
      "timer name `backup.daily` holds a `.`, which cron ignores in /etc/cron.d file names",
    ]);
    expect(provider.check?.(timer({ schedule: "@daily" }), renderContext({ init: "dinit" }))).toEqual([]);
  });

  it("observes whether each entry is there, with one `crontab -l` per user and nothing else run", async () => {
    const fake = new FakeCrontab();
    fake.crontabs.set("alice", "# BEGIN tend:backup\n30 2 * * * x\n# END tend:backup\n");
    const ctx = await applyContext({ init: "runit", scope: "user", runner: fake.runner });
    const cron = createCronProvider({ asRoot: true, now: () => new Date(2026, 0, 5, 12, 0) });
    const observed = await cron.observe([timer({ name: "backup", user: true, schedule: "30 2 * * *" }), timer({ name: "other", user: true })], ctx);
    expect(fake.runner.lines).toEqual(["crontab -u alice -l"]);
    expect(observed.get("timer:backup")).toEqual({
      exists: true,
      details: { cron: "crontab of alice", schedule: "30 2 * * *", next: new Date(2026, 0, 6, 2, 30).toISOString() },
      // This made-up host runs no cron.
      warnings: [CRON_NOT_RUNNING],
    });
    expect(observed.get("timer:other")?.exists).toBe(false);
    expect(observed.get("timer:other")?.state).toBeUndefined();
    expect(observed.get("timer:other")?.enabled).toBeUndefined();
  });

  it("observes system timers by their file, running no command", async () => {
    const ctx = await applyContext({ init: "runit" });
    await mkdir(join(ctx.rootDir, "etc/cron.d"), { recursive: true });
    await writeFile(join(ctx.rootDir, "etc/cron.d/tend-gc"), "x\n");
    const observed = await provider.observe([timer({}), timer({ name: "nope" })], ctx);
    expect(observed.get("timer:gc")?.exists).toBe(true);
    expect(observed.get("timer:nope")?.exists).toBe(false);
    expect(ctx.runner.calls).toEqual([]);
  });

  it("refuses timers on a host where no cron would run them", async () => {
    const ctx = await applyContext({ init: "runit" });
    const refused = async (timers: Timer[], c = ctx) => (await provider.checkHost?.(timers, new Map(), c))?.map((e) => e.message);
    expect(await refused([timer({}), timer({ name: "b" })])).toEqual([expect.stringMatching(/^timer:gc is a cron job, but no cron daemon is installed/)]);
    await writePrograms(ctx.rootDir, { "/usr/sbin/cron": PROGRAMS.debianCron });
    expect(await refused([timer({})])).toEqual(["timer:gc is a cron job, but /etc/cron.d does not exist, so no cron would run it"]);
    await mkdir(dirname(join(ctx.rootDir, "etc/cron.d/x")), { recursive: true });
    expect(await refused([timer({})])).toEqual([]);
    const user = await applyContext({ init: "runit", scope: "user" });
    await writePrograms(user.rootDir, { "/usr/sbin/cron": PROGRAMS.debianCron, "/usr/bin/crontab": PROGRAMS.crontab });
    expect(await refused([timer({ user: true })], user)).toEqual([]);
  });

  it("runs nothing to apply or remove: cron reads its files by itself", async () => {
    const ctx = await applyContext({ init: "openrc" });
    await provider.apply(change(timer({}), "add", ["enable", "start"]), ctx);
    await provider.apply(change(timer({}), "change", ["restart"]), ctx);
    await provider.remove(change(timer({}), "remove", []), ctx);
    expect(ctx.runner.calls).toEqual([]);
    expect(ctx.logged).toEqual([
      "timer:gc: cron reads /etc/cron.d/tend-gc within a minute; nothing to run",
      "timer:gc: cron reads /etc/cron.d/tend-gc within a minute; nothing to run",
    ]);
  });
});
