import { mkdir, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Service } from "@tend/core";
import { ALICE, applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { observeServices } from "./observe-services.js";
import { renderUserRunsvdirScript, userRunsvdir } from "./user-runsvdir.js";

const service = (name: string, fields: Omit<Service, "type" | "name"> = {}): Service => ({ type: "service", name, ...fields });

async function put(root: string, path: string, content = ""): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), content);
}
async function link(root: string, path: string, target: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await symlink(target, join(root, path));
}

describe("observeServices (system)", () => {
  it("reads everything with one sv status and the links", async () => {
    const runner = new RecordingRunner().on("sv status", {
      exitCode: 1,
      stdout: [
        "run: /etc/sv/tend-web: (pid 1140) 3s; run: log: (pid 1135) 3s",
        "down: /etc/sv/tend-off: 3s; run: log: (pid 1149) 3s",
        "run: /etc/sv/tend-stopping: (pid 4213) 18s, want down, got TERM; run: log: (pid 4211) 18s",
        "warning: /etc/sv/tend-new: unable to open supervise/ok: file does not exist",
        "run: /etc/sv/sshd: (pid 700) 90s",
        "",
      ].join("\n"),
    });
    const ctx = await applyContext({ init: "runit", runner });
    for (const name of ["tend-web", "tend-off", "tend-stopping", "tend-new", "sshd", "ntpd"]) await mkdir(join(ctx.rootDir, "etc/sv", name), { recursive: true });
    await put(ctx.rootDir, "/etc/sv/tend-off/down");
    for (const name of ["tend-web", "tend-off", "tend-stopping", "sshd"]) await link(ctx.rootDir, `/etc/runit/runsvdir/default/${name}`, `/etc/sv/${name}`);
    await put(ctx.rootDir, "/etc/sv/sshd/down"); // the package's own: not tend's business

    const resources = [
      service("web", { exec: "/bin/web" }),
      service("off", { exec: "/bin/off" }),
      service("stopping", { exec: "/bin/stopping" }),
      service("new", { exec: "/bin/new" }),
      service("gone", { exec: "/bin/gone" }),
      service("sshd"),
      service("ntpd"),
      { type: "timer" as const, name: "t", exec: "/bin/t", schedule: "@daily" },
    ];
    const observed = await observeServices(resources, ctx);

    expect(runner.lines).toEqual(["sv status /etc/sv/tend-web /etc/sv/tend-off /etc/sv/tend-stopping /etc/sv/tend-new /etc/sv/sshd /etc/sv/ntpd"]);
    expect(Object.fromEntries([...observed].map(([key, o]) => [key, { exists: o.exists, state: o.state, enabled: o.enabled }]))).toEqual({
      "service:web": { exists: true, state: "running", enabled: true },
      "service:off": { exists: true, state: "stopped", enabled: false },
      "service:stopping": { exists: true, state: "stopped", enabled: true },
      "service:new": { exists: true, state: "stopped", enabled: false },
      "service:gone": { exists: false, state: "stopped", enabled: false },
      "service:sshd": { exists: true, state: "running", enabled: true },
      "service:ntpd": { exists: true, state: "stopped", enabled: false },
    });
    expect(observed.get("service:web")?.details).toEqual({ sv: "run: /etc/sv/tend-web: (pid 1140) 3s; run: log: (pid 1135) 3s", pid: 1140, seconds: 3, logPid: 1135 });
    expect(observed.get("service:new")?.details).toMatchObject({ supervised: false });
    // boot truth, from the same links and down files
    expect(observed.get("service:web")?.atBoot).toEqual({ starts: true });
    expect(observed.get("service:off")?.atBoot).toEqual({ starts: false, why: "/etc/sv/tend-off/down keeps runsv from starting it at boot" });
    expect(observed.get("service:new")?.atBoot).toEqual({ starts: false, why: "it is not linked into /etc/runit/runsvdir/default" });
    expect(observed.get("service:sshd")?.atBoot).toEqual({ starts: false, why: "/etc/sv/sshd/down keeps runsv from starting it at boot" });
    expect(observed.get("service:gone")?.atBoot).toBeUndefined();
  });

  it("reports a linked directory no runsv supervises yet as drift: it looks stopped, but runsvdir's next scan starts it", async () => {
    const runner = new RecordingRunner().on("sv status", { exitCode: 1, stdout: "warning: /etc/sv/tend-late: unable to open supervise/ok: file does not exist\nwarning: /etc/sv/tend-held: unable to open supervise/ok: file does not exist\n" });
    const ctx = await applyContext({ init: "runit", runner });
    for (const name of ["tend-late", "tend-held"]) {
      await mkdir(join(ctx.rootDir, "etc/sv", name), { recursive: true });
      await link(ctx.rootDir, `/etc/runit/runsvdir/default/${name}`, `/etc/sv/${name}`);
    }
    await put(ctx.rootDir, "/etc/sv/tend-held/down"); // runsv will not start this one
    const observed = await observeServices([service("late", { exec: "/bin/late" }), service("held", { exec: "/bin/held" })], ctx);
    expect(observed.get("service:late")).toMatchObject({ state: "stopped", drift: ["no runsv supervises /etc/sv/tend-late yet: runsvdir's next scan starts it"] });
    expect(observed.get("service:held")?.drift).toBeUndefined();
  });

  it("a link that points elsewhere does not enable", async () => {
    const ctx = await applyContext({ init: "runit" });
    await mkdir(join(ctx.rootDir, "etc/sv/tend-web"), { recursive: true });
    await link(ctx.rootDir, "/etc/runit/runsvdir/default/tend-web", "/etc/sv/other");
    expect((await observeServices([service("web", { exec: "/bin/web" })], ctx)).get("service:web")?.enabled).toBe(false);
  });

  it("accepts a relative link", async () => {
    const ctx = await applyContext({ init: "runit" });
    await mkdir(join(ctx.rootDir, "etc/sv/tend-web"), { recursive: true });
    await link(ctx.rootDir, "/etc/runit/runsvdir/default/tend-web", "../../../sv/tend-web");
    expect((await observeServices([service("web", { exec: "/bin/web" })], ctx)).get("service:web")?.enabled).toBe(true);
  });

  it("runs nothing under --root and leaves state unobservable", async () => {
    const ctx = await applyContext({ init: "runit", offline: true });
    await mkdir(join(ctx.rootDir, "etc/sv/tend-web"), { recursive: true });
    await link(ctx.rootDir, "/etc/runit/runsvdir/default/tend-web", "/etc/sv/tend-web");
    const observed = await observeServices([service("web", { exec: "/bin/web" })], ctx);
    expect(ctx.runner.calls).toEqual([]);
    expect(observed.get("service:web")).toEqual({ exists: true, enabled: true, atBoot: { starts: true } });
  });

  it("runs no command when nothing exists", async () => {
    const ctx = await applyContext({ init: "runit" });
    const observed = await observeServices([service("web", { exec: "/bin/web" })], ctx);
    expect(ctx.runner.calls).toEqual([]);
    expect(observed.get("service:web")).toEqual({ exists: false, state: "stopped", enabled: false });
  });
});

describe("observeServices (user)", () => {
  const dir = "/home/alice/.local/service/tend-syncthing";
  const syncthing = service("syncthing", { exec: "syncthing serve", user: true, restart: "always" });

  it("is enabled while tend-runsvdir-alice is in place", async () => {
    const runner = new RecordingRunner().on("sv status", { stdout: `run: ${dir}: (pid 50) 9s; run: log: (pid 49) 9s\n` });
    const ctx = await applyContext({ init: "runit", scope: ALICE, runner });
    await mkdir(join(ctx.rootDir, dir), { recursive: true });
    const runsvdir = userRunsvdir("alice", "/home/alice");
    await put(ctx.rootDir, `${runsvdir.dir}/run`, renderUserRunsvdirScript(runsvdir));
    await link(ctx.rootDir, runsvdir.link, runsvdir.dir);
    expect((await observeServices([syncthing], ctx)).get("service:syncthing")).toMatchObject({ exists: true, state: "running", enabled: true });
    expect(runner.lines).toEqual([`sv status ${dir}`]);
    expect((await observeServices([syncthing], ctx)).get("service:syncthing")?.atBoot).toEqual({ starts: true });
    // a runsvdir that runs now but that runsv leaves down at boot: nothing starts alice's services
    await put(ctx.rootDir, `${runsvdir.dir}/down`);
    expect((await observeServices([syncthing], ctx)).get("service:syncthing")).toMatchObject({
      enabled: true,
      atBoot: { starts: false, why: "it runs under alice's runsvdir /etc/sv/tend-runsvdir-alice, which has a down file, so nothing starts it at boot" },
    });
  });

  it("reports a missing tend-runsvdir-alice as drift and not enabled", async () => {
    const ctx = await applyContext({ init: "runit", scope: ALICE });
    await mkdir(join(ctx.rootDir, dir), { recursive: true });
    expect((await observeServices([syncthing], ctx)).get("service:syncthing")).toMatchObject({
      exists: true,
      enabled: false,
      drift: ["/etc/sv/tend-runsvdir-alice, which runs alice's runit services, is missing or was edited"],
      atBoot: { starts: false, why: "it runs under alice's runsvdir /etc/sv/tend-runsvdir-alice, which is not linked into /etc/runit/runsvdir/default, so nothing starts it at boot" },
    });
  });
});
