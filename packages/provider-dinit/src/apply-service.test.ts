import { lstat, readlink } from "node:fs/promises";
import { join } from "node:path";
import type { Operation, ResourceChange, Service } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { BOOT, writeHostTree, type HostTree } from "./__fixtures__/host-tree.js";
import { applyService } from "./apply-service.js";

const WEB: Service = { type: "service", name: "web", exec: "/opt/web/bin/server", restart: "on_failure" };
const WEB_FILE: HostTree = { "/etc/dinit.d/tend-web": "type = process\n" };

function change(resource: Service, action: "add" | "change", ops: Operation[], filesChanged = true): ResourceChange {
  return { key: `service:${resource.name}`, action, resource, ops, filesChanged, reasons: [] };
}

async function context(tree: HostTree, options: { runner?: RecordingRunner; scope?: "user"; offline?: boolean } = {}) {
  const ctx = await applyContext({ init: "dinit", runner: options.runner ?? new RecordingRunner(), ...(options.scope ? { scope: options.scope } : {}), offline: options.offline ?? false });
  await writeHostTree(ctx.rootDir, tree);
  return ctx;
}

const exists = (root: string, path: string) => lstat(join(root, path)).then(() => true, () => false);

describe("applyService", () => {
  it("adds a service with dinitctl enable, then start, after loading the description it wrote", async () => {
    const ctx = await context({ ...BOOT, ...WEB_FILE });
    await applyService(change(WEB, "add", ["enable", "start"]), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl reload tend-web", "dinitctl enable tend-web", "dinitctl start tend-web"]);
    expect(ctx.runner.calls[1]).toMatchObject({ okCodes: "any", timeoutMs: 90_000 });
  });

  it("takes `service already enabled.` (exit 1) as done", async () => {
    const runner = new RecordingRunner().on("dinitctl enable", { exitCode: 1, stderr: "dinitctl: service already enabled.\n" });
    const ctx = await context({ ...BOOT, ...WEB_FILE }, { runner });
    await applyService(change(WEB, "add", ["enable", "start"]), ctx);
    expect(runner.lines).toEqual(["dinitctl reload tend-web", "dinitctl enable tend-web", "dinitctl start tend-web"]);
  });

  it("fails with dinitctl's words when enable fails otherwise", async () => {
    const runner = new RecordingRunner().on("dinitctl enable", {
      exitCode: 1,
      stderr: "dinitctl: error loading service (or dependency of service).\ndinitctl: try 'dinit-check <service-name>' or check log for more information.\n",
    });
    const ctx = await context({ ...BOOT, ...WEB_FILE }, { runner });
    await expect(applyService(change(WEB, "add", ["enable", "start"]), ctx)).rejects.toThrow(
      "`dinitctl enable tend-web` exited 1: dinitctl: error loading service (or dependency of service).",
    );
    expect(runner.lines).toEqual(["dinitctl reload tend-web", "dinitctl enable tend-web"]);
  });

  it("reloads a changed description before restarting it", async () => {
    const ctx = await context({ ...BOOT, ...WEB_FILE });
    await applyService(change(WEB, "change", ["restart"]), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl reload tend-web", "dinitctl restart --force tend-web"]);
  });

  it("does not reload when only a trigger asked for the restart", async () => {
    const ctx = await context({ ...BOOT, ...WEB_FILE });
    await applyService(change(WEB, "change", ["restart"], false), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl restart --force tend-web"]);
  });

  it("stops, reloads and starts a running service dinit refuses to reload", async () => {
    const runner = new RecordingRunner().on(
      "dinitctl reload",
      { exitCode: 1, stderr: "dinitctl: could not reload service; service in wrong state, incompatible change, or bad service description.\n" },
      1,
    );
    const ctx = await context({ ...BOOT, ...WEB_FILE }, { runner });
    await applyService(change(WEB, "change", ["restart"]), ctx);
    expect(runner.lines).toEqual(["dinitctl reload tend-web", "dinitctl stop tend-web", "dinitctl reload tend-web", "dinitctl start tend-web"]);
    expect(ctx.logged).toEqual(["tend-web: dinit refused to reload it while running; stopping it to reload"]);
  });

  it("fails when the description stays unloadable", async () => {
    const runner = new RecordingRunner().on("dinitctl reload", {
      exitCode: 1,
      stderr: "dinitctl: could not reload service; service in wrong state, incompatible change, or bad service description.\n",
    });
    const ctx = await context({ ...BOOT, ...WEB_FILE }, { runner });
    await expect(applyService(change(WEB, "change", ["restart"]), ctx)).rejects.toThrow(/`dinitctl reload tend-web` exited 1/);
    expect(runner.lines).toEqual(["dinitctl reload tend-web", "dinitctl stop tend-web", "dinitctl reload tend-web"]);
  });

  it("starts a stopped service instead of restarting it", async () => {
    const runner = new RecordingRunner().on("dinitctl restart", { exitCode: 1, stderr: "dinitctl: cannot restart service; service not started.\n" });
    const ctx = await context({ ...BOOT, ...WEB_FILE }, { runner });
    await applyService(change(WEB, "change", ["restart"]), ctx);
    expect(runner.lines).toEqual(["dinitctl reload tend-web", "dinitctl restart --force tend-web", "dinitctl start tend-web"]);
  });

  it("enables a service declared enabled-but-stopped with the boot link alone, since dinitctl enable would start it", async () => {
    const stopped: Service = { ...WEB, desired: { state: "stopped", enabled: true } };
    const ctx = await context({ ...BOOT, ...WEB_FILE });
    await applyService(change(stopped, "add", ["enable"]), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl reload tend-web"]);
    expect(await readlink(join(ctx.rootDir, "/etc/dinit.d/boot.d/tend-web"))).toBe("../tend-web");
  });

  it("converges state drift: stop, disable (not enabled is fine), start", async () => {
    const runner = new RecordingRunner().on("dinitctl disable", { exitCode: 1, stderr: "dinitctl: service not currently enabled\n" });
    const ctx = await context({ ...BOOT, ...WEB_FILE, "/etc/dinit.d/boot.d/tend-web": { link: "../tend-web" } }, { runner });
    await applyService(change({ ...WEB, desired: { state: "stopped", enabled: false } }, "change", ["disable", "stop"], false), ctx);
    expect(runner.lines).toEqual(["dinitctl disable tend-web", "dinitctl stop tend-web"]);
    // dinit had no boot dependency to drop (it was linked offline), so the link is removed directly.
    expect(await exists(ctx.rootDir, "/etc/dinit.d/boot.d/tend-web")).toBe(false);
  });

  it("keeps a service that must run running when disabling it (dinit stops what only boot wanted)", async () => {
    const ctx = await context({ ...BOOT, ...WEB_FILE, "/etc/dinit.d/boot.d/tend-web": { link: "../tend-web" } });
    await applyService(change({ ...WEB, desired: { state: "running", enabled: false } }, "change", ["disable"], false), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl start tend-web", "dinitctl disable tend-web"]);
  });

  it("delivers reloadOn as the declared signal with dinitctl signal, never dinit's reload", async () => {
    const ctx = await context({ ...BOOT, ...WEB_FILE });
    await applyService(change({ ...WEB, reloadSignal: "HUP" }, "change", ["reload"], false), ctx);
    await applyService(change({ ...WEB, reloadSignal: "WINCH" }, "change", ["reload"], false), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl signal HUP tend-web", "dinitctl signal 28 tend-web"]);
  });

  it("refuses a reload without reloadSignal", async () => {
    const ctx = await context({ ...BOOT, ...WEB_FILE });
    await expect(applyService(change(WEB, "change", ["reload"], false), ctx)).rejects.toThrow(
      "service:web lists resources in reloadOn, but it cannot reload on dinit",
    );
    expect(ctx.runner.lines).toEqual([]);
  });

  it("enables a distro service with dinitctl enable, by its own name", async () => {
    const ctx = await context({ ...BOOT, "/lib/dinit.d/sshd": "type = process\n" });
    await applyService(change({ type: "service", name: "sshd" }, "add", ["enable"]), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl enable sshd"]);
  });

  it("refuses a distro service whose description is missing at apply", async () => {
    const ctx = await context(BOOT);
    await expect(applyService(change({ type: "service", name: "sshd", requires: ["file:x"] }, "add", ["enable"]), ctx)).rejects.toThrow(
      "service:sshd has no exec, but /etc/dinit.d/sshd does not exist; install the package that ships it",
    );
    expect(ctx.runner.lines).toEqual([]);
  });

  it("drives a user's dinit as the user, and creates the log folder first", async () => {
    const sync: Service = { type: "service", name: "sync", exec: "/bin/sync", user: true };
    const ctx = await context(
      { "/home/alice/.config/dinit.d/boot": "waits-for.d = boot.d\n", "/home/alice/.config/dinit.d/boot.d": { dir: true }, "/home/alice/.config/dinit.d/tend-sync": "x\n" },
      { scope: "user" },
    );
    await applyService(change(sync, "add", ["enable", "start"]), ctx);
    expect(ctx.runner.lines).toEqual([
      "dinitctl --user --socket-path /home/alice/.dinitctl reload tend-sync",
      "dinitctl --user --socket-path /home/alice/.dinitctl enable tend-sync",
      "dinitctl --user --socket-path /home/alice/.dinitctl start tend-sync",
    ]);
    expect(ctx.runner.calls.every((c) => c.asUser?.uid === 1000 && c.env?.HOME === "/home/alice")).toBe(true);
    expect(await exists(ctx.rootDir, "/home/alice/.local/state/tend/log")).toBe(true);
  });

  describe("offline (--root)", () => {
    it("links the service into boot's waits-for.d and runs nothing", async () => {
      const ctx = await context({ ...BOOT, ...WEB_FILE }, { offline: true });
      await applyService(change(WEB, "add", ["enable", "start"]), ctx);
      expect(ctx.runner.lines).toEqual([]);
      expect(await readlink(join(ctx.rootDir, "/etc/dinit.d/boot.d/tend-web"))).toBe("../tend-web");
    });

    it("links a distro service where its description lives, as dinitctl would", async () => {
      const ctx = await context({ "/lib/dinit.d/boot": "waits-for.d = /etc/dinit.d/boot.d\n", "/etc/dinit.d/boot.d": { dir: true }, "/lib/dinit.d/sshd": "x\n" }, { offline: true });
      await applyService(change({ type: "service", name: "sshd" }, "add", ["enable"]), ctx);
      expect(await readlink(join(ctx.rootDir, "/etc/dinit.d/boot.d/sshd"))).toBe("/lib/dinit.d/sshd");
    });

    it("fails clearly when boot has no waits-for.d", async () => {
      const ctx = await context({ "/etc/dinit.d/boot": "type = internal\n", ...WEB_FILE }, { offline: true });
      await expect(applyService(change(WEB, "add", ["enable"]), ctx)).rejects.toThrow(/has no `waits-for.d` folder/);
    });

    it("removes the link on disable", async () => {
      const ctx = await context({ ...BOOT, ...WEB_FILE, "/etc/dinit.d/boot.d/tend-web": { link: "../tend-web" } }, { offline: true });
      await applyService(change(WEB, "change", ["disable"]), ctx);
      expect(await exists(ctx.rootDir, "/etc/dinit.d/boot.d/tend-web")).toBe(false);
      expect(ctx.runner.lines).toEqual([]);
    });
  });
});
