import { lstat, readlink } from "node:fs/promises";
import { join } from "node:path";
import type { Operation, ResourceChange, Service } from "@tend/core";
import { applyContext, RecordingRunner, writeHostTree, type HostTree } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { applyBatch, applyChange } from "./apply-batch.js";

const web: Service = { type: "service", name: "web", exec: "/opt/web/bin/server", restart: "always" };
const cron: Service = { type: "service", name: "cron" };
const change = (action: ResourceChange["action"], ops: Operation[], resource: Service = web, previous?: Service): ResourceChange => ({
  key: `service:${resource.name}`,
  action,
  resource,
  ...(previous ? { previous } : {}),
  ops,
  filesChanged: action !== "remove",
  reasons: [],
});
const DEFAULT = { "/etc/runlevels/default": { dir: true } } as const;

async function context(options: { offline?: boolean; tree?: HostTree; runner?: RecordingRunner } = {}) {
  const runner = options.runner ?? new RecordingRunner();
  const ctx = await applyContext({ init: "openrc", runner, offline: options.offline ?? false });
  await writeHostTree(ctx.rootDir, options.tree ?? DEFAULT);
  return ctx;
}

async function run(c: ResourceChange, options: { offline?: boolean; tree?: HostTree } = {}) {
  const ctx = await context(options);
  await applyChange(c, ctx);
  return { lines: ctx.runner.lines, calls: ctx.runner.calls, logged: ctx.logged, root: ctx.rootDir };
}

describe("applyChange", () => {
  it("adds: the default runlevel link, as rc-update add makes it, and rc-service start", async () => {
    const { lines, root } = await run(change("add", ["enable", "start"]));
    expect(lines).toEqual(["rc-service -- tend-web start"]);
    expect(await readlink(join(root, "/etc/runlevels/default/tend-web"))).toBe("/etc/init.d/tend-web");
  });

  it("leaves a link that is already there", async () => {
    const { root } = await run(change("add", ["enable"]), { tree: { "/etc/runlevels/default/tend-web": { link: "/etc/init.d/tend-web" } } });
    expect(await readlink(join(root, "/etc/runlevels/default/tend-web"))).toBe("/etc/init.d/tend-web");
  });

  it("restarts a changed service", async () => {
    expect((await run(change("change", ["restart"], web, { ...web, exec: "/opt/web/bin/old" }))).lines).toEqual(["rc-service -- tend-web restart"]);
  });

  it("starts an existing service with restart, which also revives one OpenRC counts as crashed", async () => {
    expect((await run(change("change", ["start"]))).lines).toEqual(["rc-service -- tend-web restart"]);
  });

  it("starts, restarts and stops a service OpenRC counts started while no process it recorded lives without its own stop, which would fail: what is left of its group ended, its record reset", async () => {
    const started = { "/run/openrc/started/tend-web": { link: "/etc/init.d/tend-web" } } as const;
    const reset = ["rc-service -- tend-web zap"];
    for (const ops of [["start"], ["restart"]] as Operation[][]) {
      expect((await run(change("change", ops), { tree: started })).lines, ops[0]).toEqual([...reset, "rc-service -- tend-web start"]);
    }
    expect((await run(change("change", ["stop"]), { tree: started })).lines).toEqual(reset);
    // Dead records: the group supervise-daemon's child led is ended, as the script's stop_post would.
    const dead = { ...started, "/run/openrc/options/tend-web/child_pid": "4301\n", "/run/supervise-tend-web.pid": "4300\n", "/run/tend-web.pid": "4302\n" } as const;
    const { lines, calls } = await run(change("change", ["start"]), { tree: dead });
    expect(calls[0]!.argv.at(-1)).toBe("4301");
    expect(lines.slice(1)).toEqual([...reset, "rc-service -- tend-web start"]);
    // A live process recorded is stopped by the script's own restart.
    for (const live of [{ "/run/openrc/options/tend-web/child_pid": "4301\n", "/proc/4301": { dir: true } }, { "/run/supervise-tend-web.pid": "4300\n", "/proc/4300": { dir: true } }]) {
      expect((await run(change("change", ["start"]), { tree: { ...started, ...live } })).lines).toEqual(["rc-service -- tend-web restart"]);
    }
    // A distro service's record is its script's business.
    expect((await run(change("change", ["start"], cron), { tree: { "/run/openrc/started/cron": { link: "/etc/init.d/cron" } } })).lines).toEqual(["openrc-run /etc/init.d/cron restart"]);
  });

  it("resets the record of a service the spec wants stopped, with nothing to start or stop, that OpenRC counts started while nothing it started runs", async () => {
    const stopped: Service = { ...web, desired: { state: "stopped", enabled: true } };
    const started = { ...DEFAULT, "/run/openrc/started/tend-web": { link: "/etc/init.d/tend-web" } } as const;
    const reset = await run(change("change", [], stopped), { tree: started });
    expect(reset.lines).toEqual(["rc-service -- tend-web zap"]);
    expect(reset.logged).toContain("service:web: reset OpenRC's record of it as started, as nothing it started runs");
    // Only then: a process that lives, a service not counted started, one wanted running, or under --root.
    expect((await run(change("change", [], stopped), { tree: { ...started, "/run/openrc/options/tend-web/child_pid": "4301\n", "/proc/4301": { dir: true } } })).lines).toEqual([]);
    expect((await run(change("change", ["disable"], stopped))).lines).toEqual([]);
    expect((await run(change("change", []), { tree: started })).lines).toEqual([]);
    expect((await run(change("change", [], stopped), { tree: started, offline: true })).lines).toEqual([]);
  });

  it("stops and reloads through rc-service", async () => {
    expect((await run(change("change", ["stop"]))).lines).toEqual(["rc-service -- tend-web stop"]);
    expect((await run(change("change", ["reload"], { ...web, reloadSignal: "HUP" }))).lines).toEqual(["rc-service -- tend-web reload"]);
  });

  it("runs a distro service's actions through openrc-run, which keeps OpenRC's record of a sysv script", async () => {
    const { lines, root } = await run(change("add", ["enable", "start"], cron));
    expect(lines).toEqual(["openrc-run /etc/init.d/cron start"]);
    expect(await readlink(join(root, "/etc/runlevels/default/cron"))).toBe("/etc/init.d/cron");
    expect((await run(change("change", ["start"], cron))).lines).toEqual(["openrc-run /etc/init.d/cron restart"]);
    expect((await run(change("change", ["stop", "disable"], cron))).lines).toEqual(["openrc-run /etc/init.d/cron stop"]);
    expect((await run(change("change", ["reload"], cron))).lines).toEqual(["openrc-run /etc/init.d/cron reload"]);
  });

  it("disables by removing the links from every boot runlevel the service is in, and only those", async () => {
    const tree = {
      "/etc/runlevels/default/tend-web": { link: "/etc/init.d/tend-web" },
      "/etc/runlevels/boot/tend-web": { link: "/etc/init.d/tend-web" },
      "/etc/runlevels/shutdown/tend-web": { link: "/etc/init.d/tend-web" },
      "/etc/runlevels/sysinit/other": { link: "/etc/init.d/other" },
    };
    const { lines, root } = await run(change("change", ["disable"]), { tree });
    expect(lines).toEqual([]);
    for (const runlevel of ["default", "boot"]) await expect(lstat(join(root, `/etc/runlevels/${runlevel}/tend-web`))).rejects.toThrow(/ENOENT/);
    expect(await readlink(join(root, "/etc/runlevels/shutdown/tend-web"))).toBe("/etc/init.d/tend-web");
    expect(await readlink(join(root, "/etc/runlevels/sysinit/other"))).toBe("/etc/init.d/other");
  });

  it("moving from supervise-daemon to a background daemon stops the old supervisor itself, then ends the program's process group", async () => {
    const background: Service = { ...web, restart: "no" };
    const { lines, calls, logged } = await run(change("change", ["restart"], background, web), { tree: { "/run/openrc/options/tend-web/child_pid": "4242\n" } });
    expect(lines[0]).toBe("supervise-daemon tend-web --stop");
    expect(calls[0]!.env).toEqual({ RC_SVCNAME: "tend-web" });
    expect(calls[1]!.argv.slice(0, 2)).toEqual(["/bin/sh", "-c"]);
    expect(calls[1]!.argv.slice(3)).toEqual(["tend-end-group", "4242"]);
    expect(lines.slice(2)).toEqual(["rc-service -- tend-web zap", "rc-service -- tend-web start"]);
    expect(logged).toEqual(["service:web: stopped the process supervise-daemon kept, then started it under start-stop-daemon"]);
  });

  it("a stop that comes with a move to another supervision stops the old process the old way, and starts nothing", async () => {
    const { calls, lines, logged } = await run(change("change", ["stop"], web, { ...web, restart: "no" }), {
      tree: { "/run/openrc/options/tend-web/tend_group": "4240\n", "/run/tend-web.pid": "4241\n" },
    });
    expect(lines[0]).toBe("start-stop-daemon --stop --oknodo --retry TERM/5/KILL/5 --pidfile /run/tend-web.pid");
    expect(calls[1]!.argv.at(-1)).toBe("4240");
    expect(lines.slice(2)).toEqual(["rc-service -- tend-web zap"]);
    expect(logged).toEqual([]);
    // The same supervision: the script's own stop.
    expect((await run(change("change", ["stop"], web, { ...web, exec: "/opt/web/bin/old" }))).lines).toEqual(["rc-service -- tend-web stop"]);
  });

  it("moving from a background daemon to supervise-daemon stops the old daemon by its pidfile and ends the group its start kept", async () => {
    const { calls, lines } = await run(change("change", ["restart"], web, { ...web, restart: "no" }), {
      tree: { "/run/openrc/options/tend-web/tend_group": "4240\n", "/run/tend-web.pid": "4241\n" },
    });
    expect(lines[0]).toBe("start-stop-daemon --stop --oknodo --retry TERM/5/KILL/5 --pidfile /run/tend-web.pid");
    expect(calls[1]!.argv.at(-1)).toBe("4240");
    expect(lines.slice(2)).toEqual(["rc-service -- tend-web zap", "rc-service -- tend-web start"]);
  });

  it("a background daemon started without a kept group has its group read from /proc", async () => {
    const stat = "4241 (my prog) S 1 4240 4240 0 -1 4194560 0 0 0 0\n";
    const { calls } = await run(change("change", ["restart"], web, { ...web, restart: "no" }), {
      tree: { "/run/tend-web.pid": "4241\n", "/proc/4241/stat": stat },
    });
    expect(calls[1]!.argv.at(-1)).toBe("4240");
  });

  it("stops the process the host shows supervise-daemon keeps, though the change's previous definition is the script's: an apply killed between writing the script and restarting", async () => {
    const background: Service = { ...web, restart: "no" };
    // The journal held the new definition, so the rerun's change has it as previous too.
    const live = { "/run/supervise-tend-web.pid": "4300\n", "/proc/4300": { dir: true }, "/run/openrc/options/tend-web/child_pid": "4301\n" } as const;
    for (const ops of [["restart"], ["start"]] as Operation[][]) {
      const { lines, calls, logged } = await run(change("change", ops, background, background), { tree: live });
      expect(lines[0], ops[0]).toBe("supervise-daemon tend-web --stop");
      expect(calls[1]!.argv.at(-1)).toBe("4301");
      expect(lines.slice(2)).toEqual(["rc-service -- tend-web zap", "rc-service -- tend-web start"]);
      expect(logged).toEqual(["service:web: stopped the process supervise-daemon kept, then started it under start-stop-daemon"]);
    }
    // The other way: a background daemon alive, a supervised script on disk.
    const daemon = { "/run/tend-web.pid": "4302\n", "/proc/4302": { dir: true }, "/run/openrc/options/tend-web/tend_group": "4302\n" } as const;
    const { lines } = await run(change("change", ["restart"], web, web), { tree: daemon });
    expect(lines[0]).toBe("start-stop-daemon --stop --oknodo --retry TERM/5/KILL/5 --pidfile /run/tend-web.pid");
    expect(lines.slice(2)).toEqual(["rc-service -- tend-web zap", "rc-service -- tend-web start"]);
    // The process the host shows is the script's own: the script's restart, whatever the previous definition said.
    expect((await run(change("change", ["restart"], background, web), { tree: daemon })).lines).toEqual(["rc-service -- tend-web restart"]);
    // A pidfile naming no live process is no one's: the previous definition decides, as before.
    expect((await run(change("change", ["restart"], background, background), { tree: { "/run/supervise-tend-web.pid": "4300\n" } })).lines).toEqual(["rc-service -- tend-web restart"]);
  });

  it("on_failure and always share a supervisor: a plain restart", async () => {
    expect((await run(change("change", ["restart"], { ...web, restart: "on_failure" }, web))).lines).toEqual(["rc-service -- tend-web restart"]);
  });

  it("offline, enables by the runlevel link and runs nothing", async () => {
    const { lines, root } = await run(change("add", ["enable", "start"]), { offline: true });
    expect(lines).toEqual([]);
    expect(await readlink(join(root, "/etc/runlevels/default/tend-web"))).toBe("/etc/init.d/tend-web");
  });

  it("offline, disables by removing the links", async () => {
    const tree = { "/etc/runlevels/default/tend-web": { link: "/etc/init.d/tend-web" } };
    const { lines, root } = await run(change("change", ["disable", "stop"]), { offline: true, tree });
    expect(lines).toEqual([]);
    await expect(lstat(join(root, "/etc/runlevels/default/tend-web"))).rejects.toThrow(/ENOENT/);
  });

  it("throws the service's failure", async () => {
    const ctx = await context({ runner: new RecordingRunner().on("rc-service -- tend-web start", { exitCode: 1, stderr: "boom" }) });
    await expect(applyChange(change("add", ["enable", "start"]), ctx)).rejects.toThrow(/boom|exited 1/);
  });
});

describe("applyBatch", () => {
  const many = (count: number) => Array.from({ length: count }, (_, i): Service => ({ type: "service", name: `s${i}`, exec: `/opt/s/bin/s${i}`, restart: "always" }));

  async function commandsFor(count: number, ops: Operation[], action: ResourceChange["action"] = "add") {
    const services = many(count);
    const tree: HostTree = { ...DEFAULT };
    if (ops.includes("disable")) for (const s of services) tree[`/etc/runlevels/default/tend-${s.name}`] = { link: `/etc/init.d/tend-${s.name}` };
    const ctx = await context({ tree });
    const failures = await applyBatch(services.map((s) => change(action, ops, s)), ctx);
    expect(failures.size).toBe(0);
    return ctx.runner.lines;
  }

  it("enables and disables a wave of 3 and of 60 services with no command at all", async () => {
    for (const ops of [["enable"], ["disable"]] as Operation[][]) {
      expect(await commandsFor(3, ops, "change")).toEqual([]);
      expect(await commandsFor(60, ops, "change")).toEqual([]);
    }
  });

  it("starts each service with one rc-service, which takes one service a call: nothing else grows with the wave", async () => {
    const three = await commandsFor(3, ["enable", "start"]);
    const sixty = await commandsFor(60, ["enable", "start"]);
    expect(three).toEqual(["rc-service -- tend-s0 start", "rc-service -- tend-s1 start", "rc-service -- tend-s2 start"]);
    expect(sixty).toHaveLength(60);
    expect(sixty.filter((line) => !/^rc-service -- tend-s\d+ start$/.test(line))).toEqual(three.filter((line) => !/^rc-service -- tend-s\d+ start$/.test(line)));
  });

  it("runs each operation across the wave in the planner's order", async () => {
    const [a, b] = many(2);
    const ctx = await context({ tree: { ...DEFAULT, "/etc/runlevels/default/tend-s0": { link: "/etc/init.d/tend-s0" } } });
    await applyBatch([change("change", ["disable", "stop"], a), change("change", ["reload"], { ...b!, reloadSignal: "HUP" }), change("change", ["stop"], b)], ctx);
    expect(ctx.runner.lines).toEqual(["rc-service -- tend-s0 stop", "rc-service -- tend-s1 stop", "rc-service -- tend-s1 reload"]);
  });

  it("pins a failure on its own service and goes on with the others, skipping the failed one's later operations", async () => {
    const [a, b, c] = many(3);
    const runner = new RecordingRunner().on("rc-service -- tend-s1 start", { exitCode: 1, stderr: "ERROR: tend-s1 failed to start" });
    const ctx = await context({ runner });
    const failures = await applyBatch([change("add", ["enable", "start"], a), change("add", ["enable", "start"], b), change("add", ["enable", "start"], c)], ctx);
    expect([...failures.keys()]).toEqual(["service:s1"]);
    expect(runner.lines).toEqual(["rc-service -- tend-s0 start", "rc-service -- tend-s1 start", "rc-service -- tend-s2 start"]);
    const second = await context({ runner: new RecordingRunner().on("rc-service -- tend-s0 stop", { exitCode: 1 }) });
    const more = await applyBatch([change("change", ["stop", "enable"], a), change("change", ["stop", "enable"], b)], second);
    expect([...more.keys()]).toEqual(["service:s0"]);
    await expect(lstat(join(second.rootDir, "/etc/runlevels/default/tend-s0"))).rejects.toThrow(/ENOENT/);
    expect(await readlink(join(second.rootDir, "/etc/runlevels/default/tend-s1"))).toBe("/etc/init.d/tend-s1");
  });
});
