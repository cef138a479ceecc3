import { readFileSync } from "node:fs";
import { errors, type Service } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { BOOT, writeHostTree } from "./__fixtures__/host-tree.js";
import { observeServices } from "./observe-services.js";

const LIST = readFileSync(new URL("./__fixtures__/dinitctl-list.txt", import.meta.url), "utf8");
const service = (fields: Omit<Service, "type">): Service => ({ type: "service", ...fields });

describe("observeServices", () => {
  it("answers every service from one dinitctl list and the description files", async () => {
    const runner = new RecordingRunner().on("dinitctl list", { stdout: LIST });
    const ctx = await applyContext({ init: "dinit", runner });
    await writeHostTree(ctx.rootDir, {
      ...BOOT,
      "/etc/dinit.d/tend-web": "type = process\n",
      "/etc/dinit.d/boot.d/tend-web": { link: "../tend-web" },
      "/etc/dinit.d/tend-bad": "type = process\n",
      "/etc/dinit.d/tend-idle": "type = process\n",
      "/lib/dinit.d/sshd": "type = process\n",
    });
    const observed = await observeServices(
      [
        service({ name: "web", exec: "/bin/web" }),
        service({ name: "bad", exec: "/bin/bad" }),
        service({ name: "idle", exec: "/bin/idle" }),
        service({ name: "new", exec: "/bin/new" }),
        service({ name: "sshd" }),
      ],
      ctx,
    );
    expect(runner.lines).toEqual(["dinitctl list"]);
    expect(observed.get("service:web")).toMatchObject({ exists: true, state: "running", enabled: true, unitFileState: "enabled" });
    expect(observed.get("service:web")?.details).toMatchObject({ pid: 26452, description: "/etc/dinit.d/tend-web", link: "/etc/dinit.d/boot.d/tend-web" });
    expect(observed.get("service:bad")).toMatchObject({ exists: true, state: "stopped", enabled: false, unitFileState: "disabled" });
    // Unloaded: absent from the list, but its description exists.
    expect(observed.get("service:idle")).toMatchObject({ exists: true, state: "stopped", enabled: false });
    expect(observed.get("service:idle")?.details?.list).toBe("not loaded");
    expect(observed.get("service:new")).toMatchObject({ exists: false, state: "stopped", enabled: false, unitFileState: "missing" });
    expect(observed.get("service:sshd")).toMatchObject({ exists: true, state: "stopped", enabled: false });
    expect(observed.get("service:sshd")?.details?.description).toBe("/lib/dinit.d/sshd");
    // boot truth, from the same links: boot waits for what boot.d links
    expect(observed.get("service:web")?.atBoot).toEqual({ starts: true });
    expect(observed.get("service:bad")?.atBoot).toEqual({ starts: false, why: "boot does not wait for it (no link /etc/dinit.d/boot.d/tend-bad)" });
    expect(observed.get("service:new")?.atBoot).toBeUndefined();
  });

  it("counts a starting service (waiting for its readiness) as running", async () => {
    const runner = new RecordingRunner().on("dinitctl list", { stdout: LIST });
    const ctx = await applyContext({ init: "dinit", runner });
    await writeHostTree(ctx.rootDir, { ...BOOT, "/etc/dinit.d/tend-ready": "type = process\n" });
    const observed = await observeServices([service({ name: "ready", exec: "/bin/ready" })], ctx);
    expect(observed.get("service:ready")?.state).toBe("running");
  });

  it("reports a fixed dependency of boot as enabled for good (unobservable, never drift)", async () => {
    const runner = new RecordingRunner().on("dinitctl list", { stdout: "" });
    const ctx = await applyContext({ init: "dinit", runner });
    await writeHostTree(ctx.rootDir, {
      "/etc/dinit.d/boot": "type = internal\ndepends-ms: tty1\nwaits-for.d: boot.d\n",
      "/etc/dinit.d/tty1": "type = process\n",
    });
    const observed = await observeServices([service({ name: "tty1" })], ctx);
    expect(observed.get("service:tty1")).toMatchObject({ exists: true, unitFileState: "fixed" });
    expect(observed.get("service:tty1")?.enabled).toBeUndefined();
    expect(observed.get("service:tty1")?.atBoot).toEqual({ starts: true, why: "/etc/dinit.d/boot names it as a dependency" });
  });

  it("follows @meta enable-via to the folder dinitctl enable links into", async () => {
    const runner = new RecordingRunner().on("dinitctl list", { stdout: "" });
    const ctx = await applyContext({ init: "dinit", runner });
    await writeHostTree(ctx.rootDir, {
      ...BOOT,
      "/usr/lib/dinit.d/gdm": "@meta enable-via graphical\ntype = process\n",
      "/usr/lib/dinit.d/graphical": "type = internal\nwaits-for.d = /etc/dinit.d/graphical.d\n",
      "/etc/dinit.d/graphical.d/gdm": { link: "/usr/lib/dinit.d/gdm" },
    });
    const observed = await observeServices([service({ name: "gdm" })], ctx);
    expect(observed.get("service:gdm")).toMatchObject({ exists: true, enabled: true });
    expect(observed.get("service:gdm")?.details).toMatchObject({ enabledVia: "graphical", link: "/etc/dinit.d/graphical.d/gdm" });
    // it starts when graphical does, which these links alone do not tell
    expect(observed.get("service:gdm")?.atBoot).toBeUndefined();
  });

  it("asks a user's own dinit, as the user, through the socket that exists", async () => {
    const runner = new RecordingRunner().on(/list$/, { stdout: "[[+]     ] boot\n[{+}     ] tend-sync (pid: 77)\n" });
    const ctx = await applyContext({ init: "dinit", runner, scope: "user" });
    await writeHostTree(ctx.rootDir, {
      "/home/alice/.config/dinit.d/boot": "type = internal\nwaits-for.d = boot.d\n",
      "/home/alice/.config/dinit.d/boot.d/tend-sync": { link: "../tend-sync" },
      "/home/alice/.config/dinit.d/tend-sync": "type = process\n",
      "/run/user/1000/dinitctl": "",
    });
    const observed = await observeServices([service({ name: "sync", exec: "/bin/sync", user: true })], ctx);
    expect(runner.calls).toEqual([
      {
        argv: ["dinitctl", "--user", "--socket-path", "/run/user/1000/dinitctl", "list"],
        asUser: { uid: 1000, gid: 1000 },
        env: { HOME: "/home/alice" },
        okCodes: "any",
        timeoutMs: 30_000,
      },
    ]);
    expect(observed.get("service:sync")).toMatchObject({ exists: true, state: "running", enabled: true });
  });

  it("falls back to ~/.dinitctl, where dinit --user listens without XDG_RUNTIME_DIR", async () => {
    const runner = new RecordingRunner().on(/list$/, { stdout: "" });
    const ctx = await applyContext({ init: "dinit", runner, scope: "user" });
    await observeServices([service({ name: "sync", exec: "/bin/sync", user: true })], ctx);
    expect(runner.lines).toEqual(["dinitctl --user --socket-path /home/alice/.dinitctl list"]);
  });

  it("runs nothing under --root: state is unobservable, enabled still comes from the links", async () => {
    const runner = new RecordingRunner();
    const ctx = await applyContext({ init: "dinit", runner, offline: true });
    await writeHostTree(ctx.rootDir, { ...BOOT, "/etc/dinit.d/tend-web": "x\n", "/etc/dinit.d/boot.d/tend-web": { link: "../tend-web" } });
    const observed = await observeServices([service({ name: "web", exec: "/bin/web" })], ctx);
    expect(runner.lines).toEqual([]);
    expect(observed.get("service:web")).toMatchObject({ exists: true, enabled: true });
    expect(observed.get("service:web")?.state).toBeUndefined();
  });

  it("says why when dinit cannot be reached", async () => {
    const runner = new RecordingRunner().on("dinitctl list", {
      exitCode: 1,
      stderr: "dinitctl: connecting to socket: /run/dinitctl: No such file or directory\n",
    });
    const ctx = await applyContext({ init: "dinit", runner });
    const observed = await observeServices([service({ name: "web", exec: "/bin/web" })], ctx);
    expect(observed.get("service:web")?.state).toBeUndefined();
    expect(observed.get("service:web")?.details?.unreachable).toBe("dinitctl: connecting to socket: /run/dinitctl: No such file or directory");
  });

  it("counts a service dinit holds loaded as existing when its description was deleted by hand, so that the rewrite restarts it", async () => {
    const runner = new RecordingRunner().on("dinitctl list", { stdout: LIST });
    const ctx = await applyContext({ init: "dinit", runner });
    await writeHostTree(ctx.rootDir, { ...BOOT, "/etc/dinit.d/boot.d/tend-web": { link: "../tend-web" } });
    const observed = await observeServices([service({ name: "web", exec: "/bin/web" })], ctx);
    expect(observed.get("service:web")).toMatchObject({ exists: true, state: "running", unitFileState: "missing" });
  });

  it("treats a missing dinitctl like a dinit that is not running", async () => {
    const runner = new RecordingRunner();
    runner.run = async (command) => {
      throw errors.commandFailed(command.argv, undefined, "Command failed with ENOENT: dinitctl list");
    };
    const ctx = await applyContext({ init: "dinit", runner });
    const observed = await observeServices([service({ name: "web", exec: "/bin/web" })], ctx);
    expect(observed.get("service:web")?.details?.unreachable).toBe("`dinitctl list` did not finish: Command failed with ENOENT: dinitctl list");
  });
});
