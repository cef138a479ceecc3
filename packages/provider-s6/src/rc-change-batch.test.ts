import { RecordingRunner, applyContext } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { rcChangeBatch } from "./rc-change-batch.js";

const targets = ["a", "b", "c"].map((name) => ({ key: `service:${name}`, name: `tend-${name}` }));
const UP = "s6-rc -b -l /run/s6-rc -t 60000 -u -- change";

describe("rcChangeBatch", () => {
  it("changes every service with one s6-rc run", async () => {
    const ctx = await applyContext({ init: "s6" });
    expect(await rcChangeBatch(ctx, "up", targets)).toEqual(new Map());
    expect(ctx.runner.lines).toEqual([`${UP} tend-a tend-b tend-c`]);
  });

  it("pins the services s6-rc names as failed (exit 1); the others are done", async () => {
    const runner = new RecordingRunner().on(UP, { exitCode: 1, stderr: "s6-svlisten1: fatal: timed out\ns6-rc: warning: unable to start service tend-b: command exited 99\n" });
    const ctx = await applyContext({ init: "s6", runner });
    const failures = await rcChangeBatch(ctx, "up", targets);
    expect([...failures.keys()]).toEqual(["service:b"]);
    expect(String(failures.get("service:b"))).toContain("`s6-rc -b -l /run/s6-rc -t 60000 -u -- change tend-b` exited 1: s6-rc: warning: unable to start service tend-b: command exited 99");
    expect(runner.calls).toHaveLength(1);
  });

  it("tries each alone when s6-rc names none (a timeout, an unknown name)", async () => {
    const runner = new RecordingRunner()
      .on(`${UP} tend-a tend-b tend-c`, { exitCode: 3, stderr: "s6-rc: fatal: tend-c is not a recognized identifier\n" })
      .on(`${UP} tend-c`, { exitCode: 3, stderr: "s6-rc: fatal: tend-c is not a recognized identifier\n" });
    const ctx = await applyContext({ init: "s6", runner });
    const failures = await rcChangeBatch(ctx, "up", targets);
    expect([...failures.keys()]).toEqual(["service:c"]);
    expect(runner.lines).toEqual([`${UP} tend-a tend-b tend-c`, `${UP} tend-a`, `${UP} tend-b`, `${UP} tend-c`]);
  });

  it("accepts the exit codes it is told to", async () => {
    const runner = new RecordingRunner().on("s6-rc", { exitCode: 3 });
    const ctx = await applyContext({ init: "s6", runner });
    expect(await rcChangeBatch(ctx, "down", targets, { okCodes: [0, 3] })).toEqual(new Map());
  });
});
