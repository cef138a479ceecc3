import { lstat, readlink } from "node:fs/promises";
import { join } from "node:path";
import type { Operation, ResourceChange, Service } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { BOOT, writeHostTree, type HostTree } from "./__fixtures__/host-tree.js";
import { applyBatch, applyChange } from "./apply-batch.js";

const WEB: Service = { type: "service", name: "web", exec: "/opt/web/bin/server", restart: "on_failure" };
const WEB_FILE: HostTree = { "/etc/dinit.d/tend-web": "type = process\n" };
/** `dinitctl list` with boot started and tend-web running as pid 4242. */
const WEB_RUNNING = "[[+]     ] boot\n[{+}     ] tend-web (pid: 4242)\n";
const BOOT_ONLY = "[[+]     ] boot\n";

function change(resource: Service, action: "add" | "change", ops: Operation[], filesChanged = true): ResourceChange {
  return { key: `service:${resource.name}`, action, resource, ops, filesChanged, reasons: [] };
}

/** A runner whose `dinitctl list` answers `list`. */
const listing = (list: string) => new RecordingRunner().on(/^dinitctl (--user --socket-path \S+ )?list$/, { stdout: list });

async function context(tree: HostTree, options: { runner?: RecordingRunner; scope?: "user"; offline?: boolean } = {}) {
  const ctx = await applyContext({ init: "dinit", runner: options.runner ?? listing(BOOT_ONLY), ...(options.scope ? { scope: options.scope } : {}), offline: options.offline ?? false });
  await writeHostTree(ctx.rootDir, tree);
  return ctx;
}

const exists = (root: string, path: string) => lstat(join(root, path)).then(() => true, () => false);

describe("applyChange (a wave of one)", () => {
  it("adds a service with one dinitctl enable, which starts it from the started boot service; a description dinit never loaded needs no reload", async () => {
    const ctx = await context({ ...BOOT, ...WEB_FILE });
    await applyChange(change(WEB, "add", ["enable", "start"]), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl list", "dinitctl enable tend-web"]);
    expect(ctx.runner.calls[1]).toMatchObject({ okCodes: "any", timeoutMs: 90_000 });
  });

  it("reloads first a description dinit still holds from before (an adopted file, an earlier removal)", async () => {
    const ctx = await context({ ...BOOT, ...WEB_FILE }, { runner: listing(`${BOOT_ONLY}[     {-}] tend-web\n`) });
    await applyChange(change(WEB, "add", ["enable", "start"]), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl list", "dinitctl reload tend-web", "dinitctl enable tend-web"]);
  });

  it("starts it too when boot is not started, since dinitctl enable then only records it", async () => {
    const ctx = await context({ ...BOOT, ...WEB_FILE }, { runner: listing("[     {-}] boot\n") });
    await applyChange(change(WEB, "add", ["enable", "start"]), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl list", "dinitctl enable tend-web", "dinitctl start tend-web"]);
  });

  it("takes `service already enabled.` (exit 1) as done, and starts it", async () => {
    const runner = listing(BOOT_ONLY).on("dinitctl enable", { exitCode: 1, stderr: "dinitctl: service already enabled.\n" });
    const ctx = await context({ ...BOOT, ...WEB_FILE }, { runner });
    await applyChange(change(WEB, "add", ["enable", "start"]), ctx);
    expect(runner.lines).toEqual(["dinitctl list", "dinitctl enable tend-web", "dinitctl start tend-web"]);
  });

  it("fails with dinitctl's words when enable fails otherwise", async () => {
    const runner = listing(BOOT_ONLY).on("dinitctl enable", {
      exitCode: 1,
      stderr: "dinitctl: error loading service (or dependency of service).\ndinitctl: try 'dinit-check <service-name>' or check log for more information.\n",
    });
    const ctx = await context({ ...BOOT, ...WEB_FILE }, { runner });
    await expect(applyChange(change(WEB, "add", ["enable", "start"]), ctx)).rejects.toThrow(
      "`dinitctl enable tend-web` exited 1: dinitctl: error loading service (or dependency of service).",
    );
    expect(runner.lines).toEqual(["dinitctl list", "dinitctl enable tend-web"]);
  });

  it("reloads a changed description before restarting it", async () => {
    const ctx = await context({ ...BOOT, ...WEB_FILE }, { runner: listing(WEB_RUNNING) });
    await applyChange(change(WEB, "change", ["restart"]), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl list", "dinitctl reload tend-web", "dinitctl restart --force tend-web"]);
  });

  it("does not reload when only a trigger asked for the restart", async () => {
    const ctx = await context({ ...BOOT, ...WEB_FILE }, { runner: listing(WEB_RUNNING) });
    await applyChange(change(WEB, "change", ["restart"], false), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl list", "dinitctl restart --force tend-web"]);
  });

  it("stops, reloads and starts a running service dinit refuses to reload", async () => {
    const runner = listing(WEB_RUNNING).on(
      "dinitctl reload",
      { exitCode: 1, stderr: "dinitctl: could not reload service; service in wrong state, incompatible change, or bad service description.\n" },
      1,
    );
    const ctx = await context({ ...BOOT, ...WEB_FILE }, { runner });
    await applyChange(change(WEB, "change", ["restart"]), ctx);
    expect(runner.lines).toEqual(["dinitctl list", "dinitctl reload tend-web", "dinitctl stop tend-web", "dinitctl reload tend-web", "dinitctl start tend-web"]);
    expect(ctx.logged).toEqual(["tend-web: dinit refused to reload it while running; stopping it to reload"]);
  });

  it("fails when the description stays unloadable", async () => {
    const runner = listing(WEB_RUNNING).on("dinitctl reload", {
      exitCode: 1,
      stderr: "dinitctl: could not reload service; service in wrong state, incompatible change, or bad service description.\n",
    });
    const ctx = await context({ ...BOOT, ...WEB_FILE }, { runner });
    await expect(applyChange(change(WEB, "change", ["restart"]), ctx)).rejects.toThrow(/`dinitctl reload tend-web` exited 1/);
    expect(runner.lines).toEqual(["dinitctl list", "dinitctl reload tend-web", "dinitctl stop tend-web", "dinitctl reload tend-web"]);
  });

  it("starts a service dinit lists stopped instead of restarting it", async () => {
    const ctx = await context({ ...BOOT, ...WEB_FILE }, { runner: listing(`${BOOT_ONLY}[     {-}] tend-web (exit status: 0)\n`) });
    await applyChange(change(WEB, "change", ["restart"], false), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl list", "dinitctl start tend-web"]);
  });

  it("starts a service that stopped after the list instead of restarting it", async () => {
    const runner = listing(WEB_RUNNING).on("dinitctl restart", { exitCode: 1, stderr: "dinitctl: cannot restart service; service not started.\n" });
    const ctx = await context({ ...BOOT, ...WEB_FILE }, { runner });
    await applyChange(change(WEB, "change", ["restart"], false), ctx);
    expect(runner.lines).toEqual(["dinitctl list", "dinitctl restart --force tend-web", "dinitctl start tend-web"]);
  });

  it("enables a service declared enabled-but-stopped with the boot link alone, since dinitctl enable would start it", async () => {
    const stopped: Service = { ...WEB, desired: { state: "stopped", enabled: true } };
    const ctx = await context({ ...BOOT, ...WEB_FILE });
    await applyChange(change(stopped, "add", ["enable"]), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl list"]);
    expect(await readlink(join(ctx.rootDir, "/etc/dinit.d/boot.d/tend-web"))).toBe("../tend-web");
  });

  it("converges state drift: stop, then disable (not enabled is fine)", async () => {
    const runner = listing(WEB_RUNNING).on("dinitctl disable", { exitCode: 1, stderr: "dinitctl: service not currently enabled\n" });
    const ctx = await context({ ...BOOT, ...WEB_FILE, "/etc/dinit.d/boot.d/tend-web": { link: "../tend-web" } }, { runner });
    await applyChange(change({ ...WEB, desired: { state: "stopped", enabled: false } }, "change", ["stop", "disable"], false), ctx);
    expect(runner.lines).toEqual(["dinitctl list", "dinitctl stop tend-web", "dinitctl disable tend-web"]);
    // dinit had no boot dependency to drop (it was linked offline), so the link is removed directly.
    expect(await exists(ctx.rootDir, "/etc/dinit.d/boot.d/tend-web")).toBe(false);
  });

  it("only removes the link of a service dinit has not loaded, which nothing in dinit holds", async () => {
    const ctx = await context({ ...BOOT, ...WEB_FILE, "/etc/dinit.d/boot.d/tend-web": { link: "../tend-web" } });
    await applyChange(change({ ...WEB, desired: { state: "stopped", enabled: false } }, "change", ["disable"], false), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl list"]);
    expect(await exists(ctx.rootDir, "/etc/dinit.d/boot.d/tend-web")).toBe(false);
  });

  it("keeps a service that must run running when disabling it (dinit stops what only boot wanted)", async () => {
    const ctx = await context({ ...BOOT, ...WEB_FILE, "/etc/dinit.d/boot.d/tend-web": { link: "../tend-web" } }, { runner: listing(WEB_RUNNING) });
    await applyChange(change({ ...WEB, desired: { state: "running", enabled: false } }, "change", ["disable"], false), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl list", "dinitctl start tend-web", "dinitctl disable tend-web"]);
  });

  it("needs no start before disabling a service started explicitly", async () => {
    const ctx = await context({ ...BOOT, ...WEB_FILE, "/etc/dinit.d/boot.d/tend-web": { link: "../tend-web" } }, { runner: listing(`${BOOT_ONLY}[[+]     ] tend-web (pid: 4242)\n`) });
    await applyChange(change({ ...WEB, desired: { state: "running", enabled: false } }, "change", ["disable"], false), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl list", "dinitctl disable tend-web"]);
  });

  it("delivers reloadOn as the declared signal with dinitctl signal, never dinit's reload", async () => {
    const ctx = await context({ ...BOOT, ...WEB_FILE }, { runner: listing(WEB_RUNNING) });
    await applyChange(change({ ...WEB, reloadSignal: "HUP" }, "change", ["reload"], false), ctx);
    await applyChange(change({ ...WEB, reloadSignal: "WINCH" }, "change", ["reload"], false), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl list", "dinitctl signal HUP tend-web", "dinitctl list", "dinitctl signal 28 tend-web"]);
  });

  it("refuses a reload without reloadSignal", async () => {
    const ctx = await context({ ...BOOT, ...WEB_FILE }, { runner: listing(WEB_RUNNING) });
    await expect(applyChange(change(WEB, "change", ["reload"], false), ctx)).rejects.toThrow(
      "service:web lists resources in reloadOn, but it cannot reload on dinit",
    );
    expect(ctx.runner.lines).toEqual(["dinitctl list"]);
  });

  it("enables a distro service with dinitctl enable, by its own name", async () => {
    const ctx = await context({ ...BOOT, "/lib/dinit.d/sshd": "type = process\n" });
    await applyChange(change({ type: "service", name: "sshd" }, "add", ["enable"]), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl list", "dinitctl enable sshd"]);
  });

  it("refuses a distro service whose description is missing at apply", async () => {
    const ctx = await context(BOOT);
    await expect(applyChange(change({ type: "service", name: "sshd", requires: ["file:x"] }, "add", ["enable"]), ctx)).rejects.toThrow(
      "service:sshd has no exec, but /etc/dinit.d/sshd does not exist; install the package that ships it",
    );
    expect(ctx.runner.lines).toEqual([]);
  });

  it("drives a user's dinit as the user, and creates the log folder first", async () => {
    const sync: Service = { type: "service", name: "sync", exec: "/bin/sync", user: true };
    const ctx = await context(
      { "/home/alice/.config/dinit.d/boot": "waits-for.d = boot.d\n", "/home/alice/.config/dinit.d/boot.d": { dir: true }, "/home/alice/.config/dinit.d/tend-sync": "x\n" },
      { scope: "user", runner: listing(BOOT_ONLY) },
    );
    await applyChange(change(sync, "add", ["enable", "start"]), ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl --user --socket-path /home/alice/.dinitctl list", "dinitctl --user --socket-path /home/alice/.dinitctl enable tend-sync"]);
    expect(ctx.runner.calls.every((c) => c.asUser?.uid === 1000 && c.env?.HOME === "/home/alice")).toBe(true);
    expect(await exists(ctx.rootDir, "/home/alice/.local/state/tend/log")).toBe(true);
  });

  describe("offline (--root)", () => {
    it("links the service into boot's waits-for.d and runs nothing", async () => {
      const ctx = await context({ ...BOOT, ...WEB_FILE }, { offline: true });
      await applyChange(change(WEB, "add", ["enable", "start"]), ctx);
      expect(ctx.runner.lines).toEqual([]);
      expect(await readlink(join(ctx.rootDir, "/etc/dinit.d/boot.d/tend-web"))).toBe("../tend-web");
    });

    it("links a distro service where its description lives, as dinitctl would", async () => {
      const ctx = await context({ "/lib/dinit.d/boot": "waits-for.d = /etc/dinit.d/boot.d\n", "/etc/dinit.d/boot.d": { dir: true }, "/lib/dinit.d/sshd": "x\n" }, { offline: true });
      await applyChange(change({ type: "service", name: "sshd" }, "add", ["enable"]), ctx);
      expect(await readlink(join(ctx.rootDir, "/etc/dinit.d/boot.d/sshd"))).toBe("/lib/dinit.d/sshd");
    });

    it("fails clearly when boot has no waits-for.d", async () => {
      const ctx = await context({ "/etc/dinit.d/boot": "type = internal\n", ...WEB_FILE }, { offline: true });
      await expect(applyChange(change(WEB, "add", ["enable"]), ctx)).rejects.toThrow(/has no `waits-for.d` folder/);
    });

    it("removes the link on disable", async () => {
      const ctx = await context({ ...BOOT, ...WEB_FILE, "/etc/dinit.d/boot.d/tend-web": { link: "../tend-web" } }, { offline: true });
      await applyChange(change(WEB, "change", ["disable"]), ctx);
      expect(await exists(ctx.rootDir, "/etc/dinit.d/boot.d/tend-web")).toBe(false);
      expect(ctx.runner.lines).toEqual([]);
    });
  });
});

describe("applyBatch", () => {
  const named = (n: number): Service => ({ type: "service", name: `svc${n}`, exec: `/opt/svc/bin/svc${n}`, restart: "always" });
  const files = (services: Service[]): HostTree => Object.fromEntries(services.map((s) => [`/etc/dinit.d/tend-${s.name}`, "type = process\n"]));
  const running = (services: Service[]) => BOOT_ONLY + services.map((s, i) => `[{+}     ] tend-${s.name} (pid: ${1000 + i})\n`).join("");
  /** The commands of a wave, counted by what they do. */
  const counted = (lines: string[]) => {
    const counts: Record<string, number> = {};
    for (const line of lines) {
      const verb = line.split(" ").slice(1).filter((word) => !word.startsWith("-"))[0]!;
      counts[verb] = (counts[verb] ?? 0) + 1;
    }
    return counts;
  };

  it("asks dinit once for the whole wave (one dinitctl list) whether it adds 3 services or 60; what stays is the one dinitctl call each service needs", async () => {
    for (const n of [3, 60]) {
      const services = Array.from({ length: n }, (_, i) => named(i));
      const ctx = await context({ ...BOOT, ...files(services) });
      const failures = await applyBatch(services.map((s) => change(s, "add", ["enable", "start"])), ctx);
      expect(failures.size).toBe(0);
      expect(counted(ctx.runner.lines), `${n} services`).toEqual({ list: 1, enable: n });
      expect(ctx.runner.lines[0]).toBe("dinitctl list");
    }
  });

  it("restarts 3 or 60 changed services with one list for the wave and one reload and one restart each", async () => {
    for (const n of [3, 60]) {
      const services = Array.from({ length: n }, (_, i) => named(i));
      const ctx = await context({ ...BOOT, ...files(services) }, { runner: listing(running(services)) });
      await applyBatch(services.map((s) => change(s, "change", ["restart"])), ctx);
      expect(counted(ctx.runner.lines), `${n} services`).toEqual({ list: 1, reload: n, restart: n });
    }
  });

  it("carries out the wave an operation at a time, in the planner's order", async () => {
    const [a, b] = [named(1), named(2)];
    const ctx = await context({ ...BOOT, ...files([a, b]) }, { runner: listing(running([a, b])) });
    await applyBatch([change({ ...a, reloadSignal: "HUP" }, "change", ["reload"], false), change(b, "change", ["stop"], false)], ctx);
    expect(ctx.runner.lines).toEqual(["dinitctl list", "dinitctl stop tend-svc2", "dinitctl signal HUP tend-svc1"]);
  });

  it("pins a failure on its own service and carries on with the others", async () => {
    const services = [named(1), named(2), named(3)];
    const runner = listing(BOOT_ONLY).on("dinitctl enable tend-svc2", { exitCode: 1, stderr: "dinitctl: service failed to start.\n" });
    const ctx = await context({ ...BOOT, ...files(services) }, { runner });
    const failures = await applyBatch(services.map((s) => change(s, "add", ["enable", "start"])), ctx);
    expect([...failures.keys()]).toEqual(["service:svc2"]);
    expect(String(failures.get("service:svc2"))).toContain("`dinitctl enable tend-svc2` exited 1: dinitctl: service failed to start.");
    expect(runner.lines).toEqual(["dinitctl list", "dinitctl enable tend-svc1", "dinitctl enable tend-svc2", "dinitctl enable tend-svc3"]);
  });

  it("reloads every description when dinit could not be listed, which is the safe guess", async () => {
    const runner = new RecordingRunner().on("dinitctl list", { exitCode: 1, stderr: "dinitctl: connecting to socket /run/dinitctl: Connection refused\n" });
    const ctx = await context({ ...BOOT, ...WEB_FILE }, { runner });
    await applyBatch([change(WEB, "add", ["enable", "start"])], ctx);
    expect(runner.lines).toEqual(["dinitctl list", "dinitctl reload tend-web", "dinitctl enable tend-web", "dinitctl start tend-web"]);
  });

  describe("the process groups of what it stops and restarts", () => {
    /** /proc/PID/stat of a live process in process group `group`. */
    const proc = (pid: number, group: number, state = "S"): HostTree => ({ [`/proc/${pid}/stat`]: `${pid} (demo (x) y) ${state} 1 ${group} ${group} 0 -1 4194304 0\n` });

    it("runs nothing more when the group is gone once dinit has stopped the service", async () => {
      const ctx = await context({ ...BOOT, ...WEB_FILE, ...proc(77, 77), ...proc(78, 4242, "Z") }, { runner: listing(WEB_RUNNING) });
      await applyChange(change(WEB, "change", ["restart"], false), ctx);
      expect(ctx.runner.lines).toEqual(["dinitctl list", "dinitctl restart --force tend-web"]);
    });

    it("kills what is left of a stopped service's group after the grace time, naming it", async () => {
      const ctx = await context({ ...BOOT, ...WEB_FILE, ...proc(4250, 4242) }, { runner: listing(WEB_RUNNING) });
      await applyChange(change({ ...WEB, desired: { state: "stopped", enabled: true } }, "change", ["stop"], false), ctx);
      expect(ctx.runner.lines).toEqual(["dinitctl list", "dinitctl stop tend-web", '/bin/sh -c for group; do kill -KILL "-$group" 2>/dev/null; done; exit 0 tend-end-groups 4242']);
      expect(ctx.logged).toEqual(["tend-web: killed what was left of its process group 4242, 5 s after dinit stopped it"]);
    });

    it("kills as the user in a user scope", async () => {
      const sync: Service = { type: "service", name: "sync", exec: "/bin/sync", user: true };
      const ctx = await context(
        { "/home/alice/.config/dinit.d/tend-sync": "x\n", ...proc(31, 30) },
        { scope: "user", runner: listing(`${BOOT_ONLY}[[+]     ] tend-sync (pid: 30)\n`) },
      );
      await applyChange(change(sync, "change", ["restart"], false), ctx);
      expect(ctx.runner.calls.at(-1)).toMatchObject({ argv: expect.arrayContaining(["tend-end-groups", "30"]), asUser: { uid: 1000, gid: 1000 } });
    });
  });
});
