import { lstat } from "node:fs/promises";
import { join } from "node:path";
import type { ResourceChange, Service } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { BOOT, writeHostTree, type HostTree } from "./__fixtures__/host-tree.js";
import { removeBatch, removeService } from "./remove-batch.js";

const WEB: Service = { type: "service", name: "web", exec: "/opt/web/bin/server" };
const LINKED: HostTree = { ...BOOT, "/etc/dinit.d/tend-web": "x\n", "/etc/dinit.d/boot.d/tend-web": { link: "../tend-web" } };
const WEB_RUNNING = "[[+]     ] boot\n[{+}     ] tend-web (pid: 4242)\n";

const removal = (resource: Service): ResourceChange => ({ key: `service:${resource.name}`, action: "remove", resource, ops: [], filesChanged: true, reasons: [] });
const listing = (list: string) => new RecordingRunner().on("dinitctl list", { stdout: list });

async function context(tree: HostTree, runner = listing(WEB_RUNNING), offline = false) {
  const ctx = await applyContext({ init: "dinit", runner, offline });
  await writeHostTree(ctx.rootDir, tree);
  return ctx;
}
const exists = (root: string, path: string) => lstat(join(root, path)).then(() => true, () => false);

describe("removeService (a wave of one)", () => {
  it("stops, disables and unloads a tend service; the core then deletes its file", async () => {
    const ctx = await context(LINKED);
    await removeService(removal(WEB), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl list", "dinitctl stop --force tend-web", "dinitctl disable tend-web", "dinitctl unload tend-web"]);
  });

  it("runs nothing for a service dinit has not loaded: only its boot link goes", async () => {
    const ctx = await context(LINKED, listing("[[+]     ] boot\n"));
    await removeService(removal(WEB), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl list"]);
    expect(await exists(ctx.rootDir, "/etc/dinit.d/boot.d/tend-web")).toBe(false);
    expect(await exists(ctx.rootDir, "/etc/dinit.d/tend-web")).toBe(true);
  });

  it("needs no stop for a service dinit lists stopped, and no disable when it is not linked at boot", async () => {
    const ctx = await context({ ...BOOT, "/etc/dinit.d/tend-web": "x\n" }, listing("[[+]     ] boot\n[     {X}] tend-web (exit status: 1)\n"));
    await removeService(removal(WEB), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl list", "dinitctl unload tend-web"]);
  });

  it("disables after all a service boot still holds though its link was removed by hand", async () => {
    const held = { exitCode: 1, stderr: "dinitctl: could not unload service; service not stopped, or is a dependency of another service.\n" };
    const runner = listing(WEB_RUNNING).on("dinitctl unload", held, 1);
    const ctx = await context({ ...BOOT, "/etc/dinit.d/tend-web": "x\n" }, runner);
    await removeService(removal(WEB), ctx);
    expect(runner.lines).toEqual(["dinitctl list", "dinitctl stop --force tend-web", "dinitctl unload tend-web", "dinitctl disable tend-web", "dinitctl unload tend-web"]);
    expect(ctx.logged).toEqual([]);
  });

  it("tolerates a service that is not enabled, not loaded, or that dinit cannot load", async () => {
    const runner = listing(WEB_RUNNING)
      .on("dinitctl stop", { exitCode: 1, stderr: "dinitctl: error loading service (or dependency of service).\n" })
      .on("dinitctl disable", { exitCode: 1, stderr: "dinitctl: service not currently enabled\n" })
      .on("dinitctl unload", { exitCode: 1, stderr: "dinitctl: service not loaded.\n" });
    const ctx = await context(LINKED, runner);
    await removeService(removal(WEB), ctx);
    expect(runner.lines).toEqual(["dinitctl list", "dinitctl stop --force tend-web", "dinitctl disable tend-web", "dinitctl unload tend-web"]);
    // dinitctl disable gave up before unlinking: the boot link must not outlive the service.
    expect(await exists(ctx.rootDir, "/etc/dinit.d/boot.d/tend-web")).toBe(false);
  });

  it("lets the tend services that depend on it let go of it first (rm-dep), so they run on; a service not tend's keeps its dependency", async () => {
    const list = `${WEB_RUNNING}[{+}     ] tend-api (pid: 4243)\n[{+}     ] tend-ms (pid: 4244)\n[{+}     ] admin (pid: 4245)\n[{+}     ] tend-other (pid: 4246)\n`;
    const runner = listing(list).on("dinitctl rm-dep milestone", { exitCode: 1, stderr: "dinitctl: no such dependency to remove\n" });
    const ctx = await context(
      {
        ...LINKED,
        "/etc/dinit.d/tend-api": "type = process\ncommand = /opt/api\ndepends-on = tend-web\ndepends-on = network\n",
        "/etc/dinit.d/tend-ms": "type = process\ncommand = /opt/ms\ndepends-ms: tend-web\n",
        "/etc/dinit.d/admin": "type = process\ncommand = /opt/admin\ndepends-on = tend-web\n",
        "/etc/dinit.d/tend-other": "type = process\ncommand = /opt/other\ndepends-on = tend-api\n",
      },
      runner,
    );
    await removeService(removal(WEB), ctx);
    expect(runner.lines).toEqual([
      "dinitctl list",
      "dinitctl rm-dep need tend-api tend-web",
      "dinitctl rm-dep milestone tend-ms tend-web",
      "dinitctl stop --force tend-web",
      "dinitctl disable tend-web",
      "dinitctl unload tend-web",
    ]);
  });

  it("lets go of nothing between services removed in the same wave", async () => {
    const API: Service = { type: "service", name: "api", exec: "/opt/api" };
    const runner = listing(`${WEB_RUNNING}[{+}     ] tend-api (pid: 4243)\n`);
    const ctx = await context({ ...LINKED, "/etc/dinit.d/tend-api": "type = process\ncommand = /opt/api\ndepends-on = tend-web\n" }, runner);
    await removeBatch([removal(WEB), removal(API)], ctx);
    expect(runner.lines.filter((line) => line.includes("rm-dep"))).toEqual([]);
  });

  it("leaves a service others still depend on loaded, and says so", async () => {
    const runner = listing(WEB_RUNNING).on("dinitctl unload", {
      exitCode: 1,
      stderr: "dinitctl: could not unload service; service not stopped, or is a dependency of another service.\n",
    });
    const ctx = await context(LINKED, runner);
    await removeService(removal(WEB), ctx);
    expect(ctx.logged).toEqual(["tend-web: left loaded (stopped) in dinit until the services that depend on it are reloaded"]);
  });

  it("fails on anything else", async () => {
    const runner = listing(WEB_RUNNING).on("dinitctl stop", { exitCode: 1, stderr: "dinitctl: cannot stop service 'tend-web' as it is pinned started\n" });
    const ctx = await context(LINKED, runner);
    await expect(removeService(removal(WEB), ctx)).rejects.toThrow("`dinitctl stop --force tend-web` exited 1: dinitctl: cannot stop service 'tend-web' as it is pinned started");
  });

  it("only disables a distro service and leaves its files alone", async () => {
    const ctx = await context({ ...BOOT, "/lib/dinit.d/sshd": "x\n", "/etc/dinit.d/boot.d/sshd": { link: "/lib/dinit.d/sshd" } }, listing("[[+]     ] boot\n[{+}     ] sshd (pid: 12)\n"));
    await removeService(removal({ type: "service", name: "sshd" }), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl list", "dinitctl disable sshd"]);
    expect(await exists(ctx.rootDir, "/lib/dinit.d/sshd")).toBe(true);
  });

  it("kills what is left of the service's process group once dinit has stopped it", async () => {
    const ctx = await context({ ...LINKED, "/proc/4250/stat": "4250 (demo) S 1 4242 4242 0 -1\n" });
    await removeService(removal(WEB), ctx);
    expect(ctx.runner.lines.at(-1)).toBe('/bin/sh -c for group; do kill -KILL "-$group" 2>/dev/null; done; exit 0 tend-end-groups 4242');
  });

  it("offline, only removes the boot link", async () => {
    const ctx = await context(LINKED, new RecordingRunner(), true);
    await removeService(removal(WEB), ctx);
    expect(ctx.runner.lines).toEqual([]);
    expect(await exists(ctx.rootDir, "/etc/dinit.d/boot.d/tend-web")).toBe(false);
    expect(await exists(ctx.rootDir, "/etc/dinit.d/tend-web")).toBe(true);
  });
});

describe("removeBatch", () => {
  const named = (n: number): Service => ({ type: "service", name: `svc${n}`, exec: `/opt/svc/bin/svc${n}` });
  const tree = (services: Service[]): HostTree => ({
    ...BOOT,
    ...Object.fromEntries(services.flatMap((s) => [[`/etc/dinit.d/tend-${s.name}`, "x\n"], [`/etc/dinit.d/boot.d/tend-${s.name}`, { link: `../tend-${s.name}` }]])),
  });

  it("asks dinit once for the whole wave, 3 services or 60; each running one then takes its stop, disable and unload", async () => {
    for (const n of [3, 60]) {
      const services = Array.from({ length: n }, (_, i) => named(i));
      const list = "[[+]     ] boot\n" + services.map((s, i) => `[{+}     ] tend-${s.name} (pid: ${1000 + i})\n`).join("");
      const ctx = await context(tree(services), listing(list));
      expect((await removeBatch(services.map(removal), ctx)).size).toBe(0);
      const verbs = ctx.runner.lines.map((line) => line.split(" ")[1]);
      expect(verbs.filter((v) => v === "list"), `${n}`).toHaveLength(1);
      for (const verb of ["stop", "disable", "unload"]) expect(verbs.filter((v) => v === verb), `${n} ${verb}`).toHaveLength(n);
      expect(ctx.runner.lines).toHaveLength(1 + 3 * n);
    }
  });

  it("removes 3 or 60 services dinit never loaded with the one list alone", async () => {
    for (const n of [3, 60]) {
      const services = Array.from({ length: n }, (_, i) => named(i));
      const ctx = await context(tree(services), listing("[[+]     ] boot\n"));
      await removeBatch(services.map(removal), ctx);
      expect(ctx.runner.lines).toEqual(["dinitctl list"]);
    }
  });

  it("pins a failure on its own service and removes the others", async () => {
    const services = [named(1), named(2)];
    const list = "[[+]     ] boot\n[{+}     ] tend-svc1 (pid: 11)\n[{+}     ] tend-svc2 (pid: 12)\n";
    const runner = listing(list).on("dinitctl stop --force tend-svc1", { exitCode: 1, stderr: "dinitctl: cannot stop service 'tend-svc1' as it is pinned started\n" });
    const ctx = await context(tree(services), runner);
    const failures = await removeBatch(services.map(removal), ctx);
    expect([...failures.keys()]).toEqual(["service:svc1"]);
    expect(runner.lines.slice(2)).toEqual(["dinitctl stop --force tend-svc2", "dinitctl disable tend-svc2", "dinitctl unload tend-svc2"]);
  });
});
