import { applyContext, writeHostTree } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { PROGRAMS, writePrograms } from "./__fixtures__/write-programs.js";
import { findPrograms, resolveHostPath } from "./find-programs.js";

describe("resolveHostPath", () => {
  it("resolves links as the host sees them: absolute from its /, `..` never above it, loops given up", async () => {
    const ctx = await applyContext({ init: "runit" });
    await writeHostTree(ctx.rootDir, {
      "/usr/sbin/crond": { link: "../../../../bin/busybox" },
      "/sbin": { link: "usr/sbin" },
      "/usr/bin/cron": { link: "/usr/bin/cron2" },
      "/usr/bin/cron2": { link: "cron" },
    });
    expect(await resolveHostPath("/sbin/crond", ctx.files)).toBe("/bin/busybox");
    expect(await resolveHostPath("/usr/bin/cron", ctx.files)).toBeUndefined();
    expect(await resolveHostPath("/", ctx.files)).toBe("/");
  });
});

describe("findPrograms", () => {
  it("finds a name in every PATH folder, dangling links and plain files included, marking what can run", async () => {
    const ctx = await applyContext({ init: "runit" });
    await writePrograms(ctx.rootDir, { "/usr/bin/crontab": PROGRAMS.crontab });
    await writeHostTree(ctx.rootDir, { "/usr/local/bin/crontab": { link: "/opt/none" }, "/bin/crontab": PROGRAMS.crontab });
    expect(await findPrograms("crontab", ctx.files)).toEqual([
      { path: "/usr/local/bin/crontab", file: "/opt/none", executable: false },
      { path: "/usr/bin/crontab", file: "/usr/bin/crontab", executable: true },
      { path: "/bin/crontab", file: "/bin/crontab", executable: false },
    ]);
  });
});
