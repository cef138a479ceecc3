import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { doc, spec } from "./spec-documents.js";

/**
 * A timer on a host whose init has no timers and where no cron daemon is installed (it has
 * /etc/cron.d, which a package such as e2fsprogs makes): plan and apply fail with the seed's
 * TEND_CRON_MISSING and its hint, naming the timer, and no cron file is written. `base` is what
 * the spec at `path` holds beside the timer.
 */
export async function proveTimerNeedsCron(host: TestHost, path: string, base: string[]): Promise<void> {
  expect((await host.exec(["test", "-d", "/etc/cron.d"])).exitCode).toBe(0);
  expect((await host.sh("command -v cron crond")).stdout).toBe("");
  await host.writeFile(path, spec(...base, doc('type: Timer\nname: tick\nexec: /opt/demo/bin/demo tick\nschedule: "* * * * *"')));
  const output = await host.expectTend(["plan", "-f", path], { exitCode: 1 });
  expect(output).toContain(
    "error TEND_CRON_MISSING: timer:tick is a cron job, but no cron daemon is installed (no cron or crond in /usr/local/sbin, /usr/local/bin, /usr/sbin, /usr/bin, /sbin or /bin), so no cron would run it",
  );
  expect(output).toContain("hint Install a cron that reads /etc/cron.d and brings `crontab`: Debian's `cron` package, or `cronie`; dcron, busybox crond and snooze are not supported");
  expect(await host.expectTend(["apply", "-f", path], { exitCode: 1 })).toContain("TEND_CRON_MISSING");
  expect((await host.exec(["test", "-e", "/etc/cron.d/tend-tick"])).exitCode).toBe(1);
}
