import { lstat, readlink } from "node:fs/promises";
import { join } from "node:path";
import type { Operation, ResourceChange, Service } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { writeHostTree } from "@tend/testkit";
import { applyChange } from "./apply-change.js";

const web: Service = { type: "service", name: "web", exec: "/opt/web/bin/server", restart: "always" };
const change = (action: ResourceChange["action"], ops: Operation[], resource: Service = web, previous?: Service): ResourceChange => ({
  key: `service:${resource.name}`,
  action,
  resource,
  ...(previous ? { previous } : {}),
  ops,
  filesChanged: action !== "remove",
  reasons: [],
});

async function run(c: ResourceChange, options: { offline?: boolean; tree?: Parameters<typeof writeHostTree>[1] } = {}) {
  const runner = new RecordingRunner();
  const ctx = await applyContext({ init: "openrc", runner, offline: options.offline ?? false });
  await writeHostTree(ctx.rootDir, options.tree ?? {});
  await applyChange(c, ctx);
  return { lines: runner.lines, calls: runner.calls, logged: ctx.logged, root: ctx.rootDir };
}

describe("applyChange", () => {
  it("adds: rc-update add and rc-service start, as the seed says", async () => {
    const { lines } = await run(change("add", ["enable", "start"]));
    expect(lines).toEqual(["rc-update add -- tend-web default", "rc-service -- tend-web start"]);
  });

  it("restarts a changed service", async () => {
    expect((await run(change("change", ["restart"], web, { ...web, exec: "/opt/web/bin/old" }))).lines).toEqual([
      "rc-service -- tend-web restart",
    ]);
  });

  it("starts an existing service with restart, which also revives one OpenRC counts as crashed", async () => {
    expect((await run(change("change", ["start"]))).lines).toEqual(["rc-service -- tend-web restart"]);
  });

  it("stops and reloads through rc-service", async () => {
    expect((await run(change("change", ["stop"]))).lines).toEqual(["rc-service -- tend-web stop"]);
    expect((await run(change("change", ["reload"], { ...web, reloadSignal: "HUP" }))).lines).toEqual(["rc-service -- tend-web reload"]);
  });

  it("enables and starts a distro service under its own name", async () => {
    const sshd: Service = { type: "service", name: "sshd" };
    expect((await run(change("add", ["enable"], sshd))).lines).toEqual(["rc-update add -- sshd default"]);
    expect((await run(change("change", ["start"], sshd))).lines).toEqual(["rc-service -- sshd restart"]);
  });

  it("disables from every boot runlevel the service is in, and only those", async () => {
    const tree = {
      "/etc/runlevels/default/tend-web": { link: "/etc/init.d/tend-web" },
      "/etc/runlevels/boot/tend-web": { link: "/etc/init.d/tend-web" },
      "/etc/runlevels/shutdown/tend-web": { link: "/etc/init.d/tend-web" },
      "/etc/runlevels/sysinit/other": { link: "/etc/init.d/other" },
    };
    expect((await run(change("change", ["disable"]), { tree })).lines).toEqual([
      "rc-update del -- tend-web boot",
      "rc-update del -- tend-web default",
    ]);
    expect((await run(change("change", ["disable"]))).lines).toEqual([]);
  });

  it("moving from supervise-daemon to a background daemon stops the old supervisor itself", async () => {
    const background: Service = { ...web, restart: "no" };
    const { lines, calls, logged } = await run(change("change", ["restart"], background, web));
    expect(lines).toEqual(["supervise-daemon tend-web --stop", "rc-service -- tend-web zap", "rc-service -- tend-web start"]);
    expect(calls[0]!.env).toEqual({ RC_SVCNAME: "tend-web" });
    expect(logged).toEqual(["service:web: stopped the process supervise-daemon kept, then started it under start-stop-daemon"]);
  });

  it("moving from a background daemon to supervise-daemon stops the old daemon by its pidfile", async () => {
    const { lines } = await run(change("change", ["restart"], web, { ...web, restart: "no" }));
    expect(lines).toEqual([
      "start-stop-daemon --stop --oknodo --retry TERM/5/KILL/5 --pidfile /run/tend-web.pid",
      "rc-service -- tend-web zap",
      "rc-service -- tend-web start",
    ]);
  });

  it("on_failure and always share a supervisor: a plain restart", async () => {
    expect((await run(change("change", ["restart"], { ...web, restart: "on_failure" }, web))).lines).toEqual(["rc-service -- tend-web restart"]);
  });

  it("offline, enables by the runlevel link and runs nothing", async () => {
    const { lines, root } = await run(change("add", ["enable", "start"]), { offline: true, tree: { "/etc/runlevels/default": { dir: true } } });
    expect(lines).toEqual([]);
    expect(await readlink(join(root, "/etc/runlevels/default/tend-web"))).toBe("/etc/init.d/tend-web");
  });

  it("offline, disables by removing the links", async () => {
    const tree = { "/etc/runlevels/default/tend-web": { link: "/etc/init.d/tend-web" } };
    const { lines, root } = await run(change("change", ["disable", "stop"]), { offline: true, tree });
    expect(lines).toEqual([]);
    await expect(lstat(join(root, "/etc/runlevels/default/tend-web"))).rejects.toThrow(/ENOENT/);
  });
});
