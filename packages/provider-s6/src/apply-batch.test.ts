import { describe, expect, it } from "vitest";
import { ServiceSchema, type Operation, type ResourceChange, type Service } from "@tend/core";
import { RecordingRunner, applyContext } from "@tend/testkit";
import { applyBatch, applyService } from "./apply-batch.js";
import { recordUpdate } from "./s6-rc-state.js";

function change(fields: Partial<Service>, action: ResourceChange["action"], ops: Operation[], filesChanged = true): ResourceChange {
  const resource = ServiceSchema.parse({ type: "service", name: "web", exec: "/opt/web/bin/server", ...fields });
  return { key: `service:${resource.name}`, action, resource, ops, filesChanged, reasons: [] };
}

const UP = "s6-rc -b -l /run/s6-rc -t 60000 -u -- change";
const DOWN = "s6-rc -b -l /run/s6-rc -t 60000 -d -- change";
const DIR = "/run/s6-rc/servicedirs/tend-web";
/** A batched s6-svc as one line: its options, then the directories it acts on. */
const svc = (options: string, ...dirs: string[]) => `s6-svc ${options} ${dirs.join(" ")}`;

/** The recorded commands, each batched s6-svc shell loop shown as `s6-svc OPTIONS DIRS…`. */
function lines(runner: RecordingRunner): string[] {
  return runner.calls.map(({ argv }) => {
    if (argv[0] !== "/bin/sh") return argv.join(" ");
    return svc(/\$\(s6-svc (.*?) -- "\$d"/.exec(argv[2]!)![1]!, ...argv.slice(4));
  });
}

/** A recording runner whose s6-svc loops answer `ok` for every directory, after the rules given. */
function s6Runner(runner = new RecordingRunner()): RecordingRunner {
  return runner.on((argv) => argv[0] === "/bin/sh", (command) => ({ stdout: command.argv.slice(4).map((dir) => `ok ${dir}\n`).join("") }));
}

describe("applyBatch", () => {
  it("an add: enabling is the compiled bundle, starting goes through s6-rc, then s6-svc -u", async () => {
    const ctx = await applyContext({ init: "s6", runner: s6Runner() });
    await applyService(change({}, "add", ["enable", "start"]), ctx);
    expect(lines(ctx.runner)).toEqual([`${UP} tend-web`, svc("-u", DIR)]);
  });

  it("a stop goes through s6-rc, then waits with s6-svc -dwD until ./finish has ended the session", async () => {
    const ctx = await applyContext({ init: "s6", runner: s6Runner() });
    await applyService(change({ desired: { state: "stopped", enabled: true } }, "change", ["stop"], false), ctx);
    expect(lines(ctx.runner)).toEqual([`${DOWN} tend-web`, svc("-d -wD -T 20000", DIR)]);
  });

  it("a changed definition restarted by s6-rc-update is only brought up (no second restart)", async () => {
    const ctx = await applyContext({ init: "s6", runner: s6Runner() });
    recordUpdate(ctx.state, { generation: 3, services: ["tend-web"] });
    await applyService(change({}, "change", ["restart"]), ctx);
    expect(lines(ctx.runner)).toEqual([`${UP} tend-web`]);
  });

  it.each(["no", "on_failure", "always"] as const)('a restartOn restart (restart = "%s") is down-and-finished, then up: s6-svc -r would leave a finish that exits 125 down', async (restart) => {
    const ctx = await applyContext({ init: "s6", runner: s6Runner() });
    recordUpdate(ctx.state, { generation: 3, services: ["tend-web"] });
    await applyService(change({ restart }, "change", ["restart"], false), ctx);
    expect(lines(ctx.runner)).toEqual([svc("-d -wD -T 20000", DIR), `${UP} tend-web`, svc("-u", DIR)]);
  });

  it("a changed definition the update did not restart is restarted here", async () => {
    const ctx = await applyContext({ init: "s6", runner: s6Runner() });
    recordUpdate(ctx.state, { generation: 3, services: ["tend-api"] });
    await applyService(change({}, "change", ["restart"]), ctx);
    expect(lines(ctx.runner)).toEqual([svc("-d -wD -T 20000", DIR), `${UP} tend-web`, svc("-u", DIR)]);
  });

  it.each([
    ["HUP", "-h"],
    ["USR1", "-1"],
    ["USR2", "-2"],
    ["WINCH", "-y"],
    ["ALRM", "-a"],
  ] as const)("a reload sends SIG%s with s6-svc %s, to the program alone", async (signal, flag) => {
    const ctx = await applyContext({ init: "s6", runner: s6Runner() });
    await applyService(change({ reloadSignal: signal, reloadOn: ["file:conf"] }, "change", ["reload"], false), ctx);
    expect(lines(ctx.runner)).toEqual([svc(flag, DIR)]);
  });

  it("a reload without reloadSignal fails instead of restarting", async () => {
    const ctx = await applyContext({ init: "s6", runner: s6Runner() });
    await expect(applyService(change({}, "change", ["reload"], false), ctx)).rejects.toThrow("service:web lists resources in reloadOn, but it cannot reload on s6");
    expect(ctx.runner.lines).toEqual([]);
  });

  it("offline (--root) runs nothing", async () => {
    const ctx = await applyContext({ init: "s6", offline: true });
    await applyService(change({}, "add", ["enable", "start"]), ctx);
    await applyService(change({}, "change", ["restart"]), ctx);
    expect(ctx.runner.lines).toEqual([]);
  });

  it("a failed start fails its service and skips what would follow for it", async () => {
    const ctx = await applyContext({ init: "s6", runner: s6Runner() });
    ctx.runner.on("s6-rc", { exitCode: 1, stderr: "s6-rc: warning: unable to start service tend-web: command exited 1\n" });
    await expect(applyService(change({}, "add", ["enable", "start"]), ctx)).rejects.toThrow(/unable to start service tend-web/);
    expect(lines(ctx.runner)).toEqual([`${UP} tend-web`]);
  });

  it("a wave: one command per step for all its services, in the planner's order, each failure on its own service", async () => {
    const runner = s6Runner(new RecordingRunner()
      .on(`${UP} tend-new1 tend-new2`, { exitCode: 1, stderr: "s6-rc: warning: unable to start service tend-new2: command exited 1\n" })
      .on((argv) => argv[0] === "/bin/sh" && argv[2]!.includes("-wD"), (command) => ({ stdout: command.argv.slice(4).map((d) => (d.endsWith("tend-trig") ? `failed 111 ${d} s6-svc: fatal: unable to control` : `ok ${d}`)).join("\n") })));
    const ctx = await applyContext({ init: "s6", runner });
    const wave = [
      change({ name: "new1" }, "add", ["enable", "start"]),
      change({ name: "new2" }, "add", ["enable", "start"]),
      change({ name: "off", desired: { state: "stopped", enabled: false } }, "change", ["stop", "disable"], false),
      change({ name: "trig", restart: "always" }, "change", ["restart"], false),
      change({ name: "hup", reloadSignal: "HUP" }, "change", ["reload"], false),
      change({ name: "usr", reloadSignal: "USR1" }, "change", ["reload"], false),
    ];
    const failures = await applyBatch(wave, ctx);
    const dir = (name: string) => `/run/s6-rc/servicedirs/tend-${name}`;
    expect(lines(runner)).toEqual([
      `${DOWN} tend-off`,
      svc("-d -wD -T 20000", dir("off"), dir("trig")),
      `${UP} tend-new1 tend-new2`,
      svc("-u", dir("new1")),
      svc("-h", dir("hup")),
      svc("-1", dir("usr")),
    ]);
    expect([...failures.keys()].sort()).toEqual(["service:new2", "service:trig"]);
  });
});
