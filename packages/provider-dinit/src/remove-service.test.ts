import { lstat } from "node:fs/promises";
import { join } from "node:path";
import type { ResourceChange, Service } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { BOOT, writeHostTree, type HostTree } from "./__fixtures__/host-tree.js";
import { removeService } from "./remove-service.js";

const WEB: Service = { type: "service", name: "web", exec: "/opt/web/bin/server" };
const LINKED: HostTree = { ...BOOT, "/etc/dinit.d/tend-web": "x\n", "/etc/dinit.d/boot.d/tend-web": { link: "../tend-web" } };

const removal = (resource: Service): ResourceChange => ({ key: `service:${resource.name}`, action: "remove", resource, ops: [], filesChanged: true, reasons: [] });

async function context(tree: HostTree, runner = new RecordingRunner(), offline = false) {
  const ctx = await applyContext({ init: "dinit", runner, offline });
  await writeHostTree(ctx.rootDir, tree);
  return ctx;
}
const exists = (root: string, path: string) => lstat(join(root, path)).then(() => true, () => false);

describe("removeService", () => {
  it("stops, disables and unloads a tend service; the core then deletes its file", async () => {
    const ctx = await context(LINKED);
    await removeService(removal(WEB), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl stop --force tend-web", "dinitctl disable tend-web", "dinitctl unload tend-web"]);
  });

  it("tolerates a service that is not enabled, not loaded, or that dinit cannot load", async () => {
    const runner = new RecordingRunner()
      .on("dinitctl stop", { exitCode: 1, stderr: "dinitctl: error loading service (or dependency of service).\n" })
      .on("dinitctl disable", { exitCode: 1, stderr: "dinitctl: service not currently enabled\n" })
      .on("dinitctl unload", { exitCode: 1, stderr: "dinitctl: service not loaded.\n" });
    const ctx = await context(LINKED, runner);
    await removeService(removal(WEB), ctx);
    expect(runner.lines).toEqual(["dinitctl stop --force tend-web", "dinitctl disable tend-web", "dinitctl unload tend-web"]);
    // dinitctl disable gave up before unlinking: the boot link must not outlive the service.
    expect(await exists(ctx.rootDir, "/etc/dinit.d/boot.d/tend-web")).toBe(false);
  });

  it("leaves a service others still depend on loaded, and says so", async () => {
    const runner = new RecordingRunner().on("dinitctl unload", {
      exitCode: 1,
      stderr: "dinitctl: could not unload service; service not stopped, or is a dependency of another service.\n",
    });
    const ctx = await context(LINKED, runner);
    await removeService(removal(WEB), ctx);
    expect(ctx.logged).toEqual(["tend-web: left loaded (stopped) in dinit until the services that depend on it are reloaded"]);
  });

  it("fails on anything else", async () => {
    const runner = new RecordingRunner().on("dinitctl stop", { exitCode: 1, stderr: "dinitctl: cannot stop service 'tend-web' as it is pinned started\n" });
    const ctx = await context(LINKED, runner);
    await expect(removeService(removal(WEB), ctx)).rejects.toThrow("`dinitctl stop --force tend-web` exited 1: dinitctl: cannot stop service 'tend-web' as it is pinned started");
  });

  it("only disables a distro service and leaves its files alone", async () => {
    const ctx = await context({ ...BOOT, "/lib/dinit.d/sshd": "x\n", "/etc/dinit.d/boot.d/sshd": { link: "/lib/dinit.d/sshd" } });
    await removeService(removal({ type: "service", name: "sshd" }), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl disable sshd"]);
    expect(await exists(ctx.rootDir, "/lib/dinit.d/sshd")).toBe(true);
  });

  it("offline, only removes the boot link", async () => {
    const ctx = await context(LINKED, new RecordingRunner(), true);
    await removeService(removal(WEB), ctx);
    expect(ctx.runner.lines).toEqual([]);
    expect(await exists(ctx.rootDir, "/etc/dinit.d/boot.d/tend-web")).toBe(false);
    expect(await exists(ctx.rootDir, "/etc/dinit.d/tend-web")).toBe(true);
  });
});
