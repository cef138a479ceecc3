import { lutimes, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { applyContext } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { runningCron } from "./running-cron.js";
import { staleZoneWarning } from "./stale-zone.js";

const BOOT = 1_700_000_000; // seconds since the epoch
/** cron started 100 s after boot (10,000 ticks of 1/100 s). */
const CRON_STARTED = (BOOT + 100) * 1000;

/** A host whose cron (pid 321, or `comm`) started at CRON_STARTED and whose zone link was made at `zoneAt`. */
async function host(zoneAt: number, options: { comm?: string; offline?: boolean } = {}) {
  const ctx = await applyContext({ init: "runit", offline: options.offline ?? false });
  const at = (path: string) => join(ctx.rootDir, path);
  await mkdir(at("proc/321"), { recursive: true });
  await mkdir(at("etc"), { recursive: true });
  await mkdir(at("run"), { recursive: true });
  await writeFile(at("run/crond.pid"), "321\n");
  await writeFile(at("proc/stat"), `cpu  1 2 3\nbtime ${BOOT}\nprocesses 9\n`);
  // Fields 4 on; field 22 (starttime) is the 19th of them.
  const fields = Array.from({ length: 49 }, (_, i) => (i === 18 ? "10000" : "0"));
  await writeFile(at("proc/321/stat"), `321 (${options.comm ?? "cron"}) S ${fields.join(" ")}\n`);
  await symlink("/usr/share/zoneinfo/Europe/Berlin", at("etc/localtime"));
  await lutimes(at("etc/localtime"), zoneAt / 1000, zoneAt / 1000);
  return ctx;
}

const warningOf = async (ctx: Awaited<ReturnType<typeof host>>) => staleZoneWarning(ctx, await runningCron(ctx));

describe("staleZoneWarning", () => {
  it("warns when the time zone changed after cron started, naming cron's pid and when", async () => {
    const changed = CRON_STARTED + 3_600_000;
    expect(await warningOf(await host(changed))).toBe(
      `cron (pid 321) started before the time zone changed (${new Date(changed).toISOString()}): it fires timers in the zone it started with until it is restarted`,
    );
  });

  it("says nothing when cron started after the change, within the clocks' whole seconds, or is not what the pid file names", async () => {
    expect(await warningOf(await host(CRON_STARTED - 3_600_000)), "before").toBeUndefined();
    expect(await warningOf(await host(CRON_STARTED + 1000)), "slack").toBeUndefined();
    expect(await warningOf(await host(CRON_STARTED + 3_600_000, { comm: "sshd" }))).toBeUndefined();
  });

  it("says nothing in an image root, where no cron runs", async () => {
    expect(await warningOf(await host(CRON_STARTED + 3_600_000, { offline: true }))).toBeUndefined();
  });
});
