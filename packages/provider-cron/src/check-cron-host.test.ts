import { join } from "node:path";
import type { Timer } from "@tend/core";
import { applyContext, writeHostTree, type HostTree } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { PROGRAMS, writePrograms } from "./__fixtures__/write-programs.js";
import { checkCronHost } from "./check-cron-host.js";

const timer = (fields: Partial<Timer>): Timer => ({ type: "timer", name: "gc", exec: "/usr/local/bin/tend gc", schedule: "@weekly", ...fields });
const DIRS = "/usr/local/sbin, /usr/local/bin, /usr/sbin, /usr/bin, /sbin or /bin";

/** A host root with these programs (executable), other entries, and the timers' check run on it. */
async function check(timers: Timer[], host: { programs?: Record<string, string>; tree?: HostTree; scope?: "user" } = {}) {
  const ctx = await applyContext({ init: "runit", ...(host.scope ? { scope: host.scope } : {}) });
  await writePrograms(ctx.rootDir, host.programs ?? {});
  await writeHostTree(ctx.rootDir, host.tree ?? {});
  const errors = await checkCronHost(timers, ctx);
  return errors.map((e) => ({ code: e.code, message: e.message }));
}

const missing = (message: string) => [{ code: "TEND_CRON_MISSING", message }];
const cronD: HostTree = { "/etc/cron.d": { dir: true } };

describe("checkCronHost", () => {
  it("refuses a host with /etc/cron.d but no cron daemon: the timer would never run", async () => {
    expect(await check([timer({})], { tree: cronD, programs: { "/usr/bin/crontab": PROGRAMS.crontab } })).toEqual(
      missing(`timer:gc is a cron job, but no cron daemon is installed (no cron or crond in ${DIRS}), so no cron would run it`),
    );
  });

  it.each([
    ["Debian's cron", { "/usr/sbin/cron": PROGRAMS.debianCron }],
    ["cronie on Fedora", { "/usr/sbin/crond": PROGRAMS.cronie }],
    ["cronie on Arch and Void", { "/usr/bin/crond": PROGRAMS.cronie }],
    ["a cron built from source", { "/usr/local/sbin/cron": PROGRAMS.debianCron }],
  ])("accepts %s", async (_name, programs) => {
    expect(await check([timer({})], { tree: cronD, programs })).toEqual([]);
  });

  it("names busybox crond, linked as on Alpine, resolving the link inside the host root", async () => {
    const tree: HostTree = { ...cronD, "/usr/sbin/crond": { link: "/bin/busybox" } };
    expect(await check([timer({})], { tree, programs: { "/bin/busybox": PROGRAMS.busybox } })).toEqual(
      missing("timer:gc is a cron job, but the only cron here is busybox crond (/usr/sbin/crond), which does not read /etc/cron.d and is not supported"),
    );
  });

  it("names busybox crond and dcron by their contents, and snooze, once each on a merged /usr", async () => {
    const programs = { "/usr/sbin/crond": PROGRAMS.busybox, "/usr/bin/crond": PROGRAMS.dcron, "/usr/bin/snooze": PROGRAMS.snooze };
    const tree: HostTree = { ...cronD, "/sbin": { link: "usr/sbin" }, "/bin": { link: "usr/bin" } };
    expect(await check([timer({ user: true })], { tree, programs, scope: "user" })).toEqual(
      missing(
        "timer:gc is a cron job, but the only crons here are busybox crond (/usr/sbin/crond) and dcron (/usr/bin/crond) and snooze (/usr/bin/snooze), which do not read /etc/cron.d and are not supported",
      ),
    );
  });

  it("refuses a cron daemon file that cannot run", async () => {
    const tree: HostTree = { ...cronD, "/usr/sbin/cron": PROGRAMS.debianCron, "/usr/sbin/crond": { link: "/opt/gone/crond" } };
    expect(await check([timer({})], { tree })).toEqual(missing("timer:gc is a cron job, but /usr/sbin/cron is not an executable file, so no cron would run it"));
  });

  it("follows a link to the daemon inside the root, never out to this machine's files", async () => {
    const ctx = await applyContext({ init: "runit" });
    await writeHostTree(ctx.rootDir, { ...cronD, "/usr/sbin/cron": { link: "/opt/cron/sbin/cron" } });
    await writePrograms(ctx.rootDir, { "/opt/cron/sbin/cron": PROGRAMS.debianCron });
    expect(await checkCronHost([timer({})], ctx)).toEqual([]);
    const outside = await applyContext({ init: "runit" });
    await writeHostTree(outside.rootDir, cronD);
    await writeHostTree(outside.rootDir, { "/usr/sbin/cron": { link: join(ctx.rootDir, "opt/cron/sbin/cron") } });
    expect((await checkCronHost([timer({})], outside)).map((e) => e.message)).toEqual([
      "timer:gc is a cron job, but /usr/sbin/cron is not an executable file, so no cron would run it",
    ]);
  });

  it("keeps the check for /etc/cron.d on system timers", async () => {
    expect(await check([timer({}), timer({ name: "b" })], { programs: { "/usr/sbin/cron": PROGRAMS.debianCron } })).toEqual(
      missing("timer:gc is a cron job, but /etc/cron.d does not exist, so no cron would run it"),
    );
  });

  it("needs an executable crontab for user timers only", async () => {
    const daemon = { "/usr/sbin/cron": PROGRAMS.debianCron };
    expect(await check([timer({ name: "backup", user: true })], { programs: daemon, scope: "user" })).toEqual(
      missing(`timer:backup is a cron job, but \`crontab\` is not installed (in ${DIRS}), so tend cannot add it to a crontab`),
    );
    expect(await check([timer({ name: "backup", user: true })], { programs: { ...daemon, "/usr/bin/crontab": PROGRAMS.crontab }, scope: "user" })).toEqual([]);
    expect(await check([timer({})], { programs: daemon, tree: cronD })).toEqual([]);
    const notRunnable = { ...cronD, "/usr/bin/crontab": PROGRAMS.crontab };
    expect(await check([timer({ name: "backup", user: true })], { programs: daemon, tree: notRunnable, scope: "user" })).toHaveLength(1);
  });

  it("says what to install", async () => {
    const ctx = await applyContext({ init: "openrc" });
    const [error] = await checkCronHost([timer({})], ctx);
    expect(error?.hint).toBe(
      "Install a cron that reads /etc/cron.d and brings `crontab`: Debian's `cron` package, or `cronie`; dcron, busybox crond and snooze are not supported",
    );
    expect(await checkCronHost([], ctx)).toEqual([]);
  });
});
