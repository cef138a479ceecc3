import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ServiceSchema, type ResourceChange } from "@tend/core";
import { RecordingRunner, applyContext } from "@tend/testkit";
import { removeBatch, removeService } from "./remove-batch.js";

const removal = (name: string): ResourceChange => ({
  key: `service:${name}`,
  action: "remove",
  resource: ServiceSchema.parse({ type: "service", name, exec: "/opt/web/bin/server" }),
  ops: [],
  filesChanged: true,
  reasons: [],
});
const LIST = "s6-rc-db -b -l /run/s6-rc list services";
const DOWN = "s6-rc -b -l /run/s6-rc -t 60000 -d -- change";
const UP = "s6-rc -b -l /run/s6-rc -a list";
const DEPENDENTS = (...names: string[]) => `s6-rc-db -b -l /run/s6-rc -d all-dependencies ${names.join(" ")}`;

describe("removeBatch", () => {
  it("sets aside a file an admin added to the service's folder, so no folder without `type` is left for s6-rc-compile", async () => {
    const ctx = await applyContext({ init: "s6" });
    await mkdir(join(ctx.rootDir, "etc/s6/sv/tend-web"), { recursive: true });
    await writeFile(join(ctx.rootDir, "etc/s6/sv/tend-web/type"), "longrun\n");
    await writeFile(join(ctx.rootDir, "etc/s6/sv/tend-web/notification-fd"), "3\n");
    await removeService(removal("web"), ctx);
    expect((await readdir(join(ctx.rootDir, "etc/s6/sv/tend-web"))).sort()).toEqual(["type"]);
    expect(await readFile(join(ctx.rootDir, "etc/s6/sv/.tend-removed/tend-web/notification-fd"), "utf8")).toBe("3\n");
  });

  it("brings the wave down with one s6-rc change before the switch, leaving out what the live database never had", async () => {
    const runner = new RecordingRunner().on(LIST, { stdout: "s6rc-oneshot-runner\ntend-web\ntend-api\n" });
    const ctx = await applyContext({ init: "s6", runner });
    expect(await removeBatch([removal("web"), removal("api"), removal("ghost")], ctx)).toEqual(new Map());
    expect(runner.lines).toEqual([LIST, DEPENDENTS("tend-web", "tend-api"), `${DOWN} tend-web tend-api`]);
  });

  it("leaves to s6-rc-update a removed service that a service it keeps depends on, which s6-rc -d would bring down with it", async () => {
    const runner = new RecordingRunner()
      .on(LIST, { stdout: "tend-head\ntend-mid\ntend-tail\ntend-web\ntend-api\n" })
      .on(DEPENDENTS("tend-head", "tend-web", "tend-api"), { stdout: "tend-head\ntend-mid\ntend-tail\ntend-web\ntend-api\n" })
      .on(DEPENDENTS("tend-head"), { stdout: "tend-head\ntend-mid\ntend-tail\n" })
      .on(DEPENDENTS("tend-web"), { stdout: "tend-web\ntend-api\n" })
      .on(DEPENDENTS("tend-api"), { stdout: "tend-api\n" })
      .on(UP, { stdout: "tend-head\ntend-mid\ntend-tail\ntend-web\ntend-api\n" });
    const ctx = await applyContext({ init: "s6", runner });
    expect(await removeBatch([removal("head"), removal("web"), removal("api")], ctx)).toEqual(new Map());
    // tend-api goes in the same wave as the service it depends on: both come down now.
    expect(runner.lines.at(-1)).toBe(`${DOWN} tend-web tend-api`);
    expect(ctx.logged).toEqual(["tend-head: stopped by s6-rc-update at the switch, which restarts tend-mid, tend-tail, as they depend on it"]);
  });

  it("brings a removed service down now when what depends on it is already down (removed in an earlier wave, or stopped)", async () => {
    const runner = new RecordingRunner()
      .on(LIST, { stdout: "tend-head\ntend-gone\n" })
      .on(DEPENDENTS("tend-head"), { stdout: "tend-head\ntend-gone\n" })
      .on(UP, { stdout: "tend-head\n" });
    const ctx = await applyContext({ init: "s6", runner });
    await removeService(removal("head"), ctx);
    expect(runner.lines).toEqual([LIST, DEPENDENTS("tend-head"), UP, `${DOWN} tend-head`]);
    expect(ctx.logged).toEqual([]);
  });

  it("runs no change when the live database holds none of them (an apply interrupted before its switch)", async () => {
    const ctx = await applyContext({ init: "s6" });
    await removeService(removal("web"), ctx);
    expect(ctx.runner.lines).toEqual([LIST]);
  });

  it("fails the service s6-rc cannot bring down, and only that one", async () => {
    const runner = new RecordingRunner()
      .on(LIST, { stdout: "tend-web\ntend-api\n" })
      .on(DOWN, { exitCode: 1, stderr: "s6-rc: warning: unable to stop service tend-web: command exited 99\n" });
    const ctx = await applyContext({ init: "s6", runner });
    const failures = await removeBatch([removal("web"), removal("api")], ctx);
    expect([...failures.keys()]).toEqual(["service:web"]);
    await expect(removeService(removal("web"), ctx)).rejects.toThrow(/unable to stop service tend-web/);
  });

  it("offline runs nothing", async () => {
    const ctx = await applyContext({ init: "s6", offline: true });
    await removeService(removal("web"), ctx);
    expect(ctx.runner.lines).toEqual([]);
  });
});
