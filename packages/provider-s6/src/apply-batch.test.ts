import { describe, expect, it } from "vitest";
import { ServiceSchema, type Operation, type ResourceChange, type Service } from "@tend/core";
import { applyContext } from "@tend/testkit";
import { applyService } from "./apply-service.js";
import { recordUpdate } from "./s6-rc-state.js";

function change(fields: Partial<Service>, action: ResourceChange["action"], ops: Operation[], filesChanged = true): ResourceChange {
  const resource = ServiceSchema.parse({ type: "service", name: "web", exec: "/opt/web/bin/server", ...fields });
  return { key: `service:${resource.name}`, action, resource, ops, filesChanged, reasons: [] };
}

const UP = "s6-rc -b -l /run/s6-rc -t 60000 -u -- change tend-web";
const DOWN = "s6-rc -b -l /run/s6-rc -t 60000 -d -- change tend-web";
const DIR = "/run/s6-rc/servicedirs/tend-web";

describe("applyService", () => {
  it("an add: enabling is the compiled bundle, starting goes through s6-rc, then s6-svc -u", async () => {
    const ctx = await applyContext({ init: "s6" });
    await applyService(change({}, "add", ["enable", "start"]), ctx);
    expect(ctx.runner.lines).toEqual([UP, `s6-svc -u -- ${DIR}`]);
  });

  it("a stop goes through s6-rc, then s6-svc -d", async () => {
    const ctx = await applyContext({ init: "s6" });
    await applyService(change({ desired: { state: "stopped", enabled: true } }, "change", ["stop"], false), ctx);
    expect(ctx.runner.lines).toEqual([DOWN, `s6-svc -d -- ${DIR}`]);
  });

  it("a changed definition restarted by s6-rc-update is only brought up (no second restart)", async () => {
    const ctx = await applyContext({ init: "s6" });
    recordUpdate(ctx.state, { generation: 3, services: ["tend-web"] });
    await applyService(change({}, "change", ["restart"]), ctx);
    expect(ctx.runner.lines).toEqual([UP]);
  });

  it("a restartOn trigger (files unchanged) restarts through s6-supervise", async () => {
    const ctx = await applyContext({ init: "s6" });
    recordUpdate(ctx.state, { generation: 3, services: ["tend-web"] });
    await applyService(change({}, "change", ["restart"], false), ctx);
    expect(ctx.runner.lines).toEqual([`s6-svc -r -- ${DIR}`, UP]);
  });

  it("a changed definition the update did not restart is restarted here", async () => {
    const ctx = await applyContext({ init: "s6" });
    recordUpdate(ctx.state, { generation: 3, services: ["tend-api"] });
    await applyService(change({}, "change", ["restart"]), ctx);
    expect(ctx.runner.lines).toEqual([`s6-svc -r -- ${DIR}`, UP]);
  });

  it.each([
    ["HUP", "-h"],
    ["USR1", "-1"],
    ["USR2", "-2"],
    ["WINCH", "-y"],
    ["ALRM", "-a"],
  ] as const)("a reload sends SIG%s with s6-svc %s", async (signal, flag) => {
    const ctx = await applyContext({ init: "s6" });
    await applyService(change({ reloadSignal: signal, reloadOn: ["file:conf"] }, "change", ["reload"], false), ctx);
    expect(ctx.runner.lines).toEqual([`s6-svc ${flag} -- ${DIR}`]);
  });

  it("a reload without reloadSignal fails instead of restarting", async () => {
    const ctx = await applyContext({ init: "s6" });
    await expect(applyService(change({}, "change", ["reload"], false), ctx)).rejects.toThrow(
      "service:web lists resources in reloadOn, but it cannot reload on s6",
    );
    expect(ctx.runner.lines).toEqual([]);
  });

  it("offline (--root) runs nothing", async () => {
    const ctx = await applyContext({ init: "s6", offline: true });
    await applyService(change({}, "add", ["enable", "start"]), ctx);
    await applyService(change({}, "change", ["restart"]), ctx);
    expect(ctx.runner.lines).toEqual([]);
  });

  it("stops at the first failing command", async () => {
    const ctx = await applyContext({ init: "s6" });
    ctx.runner.on("s6-rc", { exitCode: 1, stderr: "s6-rc: warning: unable to start service tend-web: command exited 1\n" });
    await expect(applyService(change({}, "add", ["enable", "start"]), ctx)).rejects.toThrow(/unable to start service tend-web/);
    expect(ctx.runner.lines).toEqual([UP]);
  });
});
