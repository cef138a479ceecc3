import { copyFile, lstat, mkdir, readlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ProcessRunner, service, ServiceSchema, timer, TimerSchema, type Operation, type Resource, type ResourceChange } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { systemdProvider as provider } from "./systemd-provider.js";

const web = ServiceSchema.parse(service("web", { exec: "/opt/web/bin/server --port 8080", restart: "on_failure" }));
const backup = TimerSchema.parse(timer("backup", { exec: "/usr/bin/restic backup /srv", schedule: "30 2 * * *" }));
const gdm = ServiceSchema.parse(service("gdm", { displayManager: true }));
const syncthing = ServiceSchema.parse(service("syncthing", { exec: "syncthing serve --no-browser", user: true, restart: "always" }));
const pipewire = ServiceSchema.parse(service("pipewire", { user: true }));

const change = (resource: Resource, action: ResourceChange["action"], ops: Operation[] = []): ResourceChange => ({
  key: `${resource.type}:${resource.name}`,
  action,
  resource,
  ops,
  filesChanged: true,
  reasons: [],
});

const isLink = async (path: string) => (await lstat(path).catch(() => null))?.isSymbolicLink() ?? false;

/** Writes what the core would write for these resources into the context's root. */
async function writeArtifacts(ctx: Awaited<ReturnType<typeof applyContext>>, resources: Resource[]) {
  for (const resource of resources) for (const artifact of provider.render(resource, ctx)) await ctx.files.writeFile(artifact.path, artifact.content);
}

describe("offline apply into an image root, with the real systemctl --root", () => {
  it("enables system units and timers in the image, sets the default target, and disables them again", async () => {
    const ctx = await applyContext({ init: "systemd", offline: true });
    const real = { ...ctx, run: new ProcessRunner() };
    await mkdir(join(ctx.rootDir, "lib/systemd/system"), { recursive: true });
    for (const target of ["multi-user.target", "graphical.target", "timers.target"]) {
      await copyFile(`/lib/systemd/system/${target}`, join(ctx.rootDir, "lib/systemd/system", target));
    }
    await writeFile(join(ctx.rootDir, "lib/systemd/system/gdm.service"), "[Service]\nExecStart=/usr/sbin/gdm3\n[Install]\nAlias=display-manager.service\n");
    await writeArtifacts(ctx, [web, backup]);

    await provider.afterWrites!([change(web, "add"), change(backup, "add")], [], real);
    for (const c of [change(web, "add", ["enable", "start"]), change(backup, "add", ["enable", "start"]), change(gdm, "add", ["enable"])]) await provider.apply(c, real);

    const etc = join(ctx.rootDir, "etc/systemd/system");
    expect(await readlink(join(etc, "multi-user.target.wants/tend-web.service"))).toBe("/etc/systemd/system/tend-web.service");
    expect(await readlink(join(etc, "timers.target.wants/tend-backup.timer"))).toBe("/etc/systemd/system/tend-backup.timer");
    expect(await readlink(join(etc, "display-manager.service"))).toBe("/lib/systemd/system/gdm.service");
    expect(await readlink(join(etc, "default.target"))).toBe("/lib/systemd/system/graphical.target");

    const observed = await provider.observe([web, backup, gdm], real);
    expect(Object.fromEntries([...observed].map(([k, o]) => [k, [o.exists, o.enabled, o.state, o.unitFileState, o.drift]]))).toEqual({
      "service:web": [true, true, undefined, "enabled", undefined],
      "timer:backup": [true, true, undefined, "enabled", undefined],
      "service:gdm": [true, true, undefined, "enabled", undefined],
    });

    for (const c of [change(web, "remove"), change(backup, "remove"), change(gdm, "remove")]) await provider.remove(c, real);
    expect(await isLink(join(etc, "multi-user.target.wants/tend-web.service"))).toBe(false);
    expect(await isLink(join(etc, "timers.target.wants/tend-backup.timer"))).toBe(false);
    expect(await isLink(join(etc, "display-manager.service"))).toBe(false);
    // there was no default before gdm, so there is nothing to put back
    expect(await readlink(join(etc, "default.target"))).toBe("/lib/systemd/system/graphical.target");
  });

  it("observes offline from the tree and list-unit-files only: enabled-ness, never running", async () => {
    const runner = new RecordingRunner().on(/^systemctl --root=\S+ list-unit-files/, {
      stdout: '[{"unit_file":"gdm.service","state":"disabled","preset":"enabled"}]',
    });
    const ctx = await applyContext({ init: "systemd", offline: true, runner });
    await writeArtifacts(ctx, [backup]);
    await ctx.files.symlink("/etc/systemd/system/timers.target.wants/tend-backup.timer", "/etc/systemd/system/tend-backup.timer");
    const observed = await provider.observe([backup, ServiceSchema.parse(service("gdm"))], ctx);
    // tend's own units are read from the tree; systemctl answers for the distro's
    expect(runner.lines).toEqual([`systemctl --root=${ctx.rootDir} list-unit-files --output=json -- gdm.service`]);
    expect(observed.get("timer:backup")).toEqual({ exists: true, enabled: true, unitFileState: "enabled", details: { preset: "enabled" } });
    expect(observed.get("service:gdm")).toMatchObject({ exists: true, enabled: false });
    expect(observed.get("service:gdm")?.state).toBeUndefined();
  });

  it("asks systemctl by pattern when more than 500 tend units are left to it, by name when fewer", async () => {
    const listed = async (masked: number) => {
      const runner = new RecordingRunner().on(/^systemctl --root=\S+ list-unit-files/, { stdout: "[]" });
      const ctx = await applyContext({ init: "systemd", offline: true, runner });
      for (let i = 0; i < masked; i += 1) await ctx.files.symlink(`/etc/systemd/system/tend-m${i}.service`, "/dev/null");
      await provider.observe([backup], ctx);
      return runner.lines.map((line) => line.replace(` --root=${ctx.rootDir}`, ""));
    };
    expect(await listed(2)).toEqual(["systemctl list-unit-files --output=json -- tend-m0.service tend-m1.service"]);
    expect(await listed(501)).toEqual(["systemctl list-unit-files --output=json -- tend-*"]);
  });

  it("links user units by hand (systemd refuses --user with --root), from their [Install] section", async () => {
    const ctx = await applyContext({ init: "systemd", scope: "user", offline: true });
    const home = join(ctx.rootDir, "home/alice/.config/systemd/user");
    await writeArtifacts(ctx, [syncthing]);
    await mkdir(join(ctx.rootDir, "usr/lib/systemd/user"), { recursive: true });
    await writeFile(join(ctx.rootDir, "usr/lib/systemd/user/pipewire.service"), "[Service]\nExecStart=/usr/bin/pipewire\n\n[Install]\nAlso=pipewire.socket\nWantedBy=default.target\nAlias=pipewire-session.service\n");

    await provider.afterWrites!([change(syncthing, "add")], ["/home/alice/.config/systemd/user/tend-syncthing.service"], ctx);
    await provider.apply(change(syncthing, "add", ["enable", "start"]), ctx);
    await provider.apply(change(pipewire, "add", ["enable"]), ctx);
    expect(ctx.runner.lines).toEqual([]);
    expect(await readlink(join(home, "default.target.wants/tend-syncthing.service"))).toBe("/home/alice/.config/systemd/user/tend-syncthing.service");
    expect(await readlink(join(home, "default.target.wants/pipewire.service"))).toBe("/usr/lib/systemd/user/pipewire.service");
    expect(await readlink(join(home, "pipewire-session.service"))).toBe("/usr/lib/systemd/user/pipewire.service");

    const observed = await provider.observe([syncthing, pipewire, ServiceSchema.parse(service("missing", { user: true }))], ctx);
    expect(Object.fromEntries([...observed].map(([k, o]) => [k, o.exists]))).toEqual({ "service:syncthing": true, "service:pipewire": true, "service:missing": false });

    await provider.remove(change(syncthing, "remove"), ctx);
    await provider.remove(change(pipewire, "remove"), ctx);
    expect(await isLink(join(home, "default.target.wants/tend-syncthing.service"))).toBe(false);
    expect(await isLink(join(home, "default.target.wants/pipewire.service"))).toBe(false);
    expect(await isLink(join(home, "pipewire-session.service"))).toBe(false);
    expect(ctx.runner.lines).toEqual([]);
  });

  it("resolves a template instance against its template: exists, enabled under its own name, disabled again", async () => {
    const ctx = await applyContext({ init: "systemd", offline: true });
    const real = { ...ctx, run: new ProcessRunner() };
    const lib = join(ctx.rootDir, "lib/systemd/system");
    await mkdir(lib, { recursive: true });
    await writeFile(join(lib, "getty@.service"), "[Service]\nExecStart=/sbin/agetty %I\n[Install]\nWantedBy=getty.target\nDefaultInstance=tty1\n");
    const tty2 = ServiceSchema.parse(service("getty@tty2"));
    const nosuch = ServiceSchema.parse(service("nosuch@tty2"));

    const before = await provider.observe([tty2, nosuch], real);
    expect(before.get("service:getty@tty2")).toMatchObject({ exists: true, enabled: false, unitFileState: "disabled" });
    expect(before.get("service:nosuch@tty2")).toMatchObject({ exists: false });

    await provider.apply(change(tty2, "add", ["enable"]), real);
    const wants = join(ctx.rootDir, "etc/systemd/system/getty.target.wants/getty@tty2.service");
    expect(await readlink(wants)).toBe("/lib/systemd/system/getty@.service");
    expect((await provider.observe([tty2], real)).get("service:getty@tty2")).toMatchObject({ exists: true, enabled: true, unitFileState: "enabled" });

    await provider.remove(change(tty2, "remove"), real);
    expect(await isLink(wants)).toBe(false);
  });

  it("observes a user distro unit's links, so plan enables it offline, and the next plan is clean", async () => {
    const ctx = await applyContext({ init: "systemd", scope: "user", offline: true });
    const userLib = join(ctx.rootDir, "usr/lib/systemd/user");
    await mkdir(userLib, { recursive: true });
    await writeFile(join(userLib, "pipewire.service"), "[Service]\nExecStart=/usr/bin/pipewire\n\n[Install]\nWantedBy=default.target\n");
    await writeFile(join(userLib, "dbus.service"), "[Service]\nExecStart=/usr/bin/dbus-daemon\n"); // static
    await writeFile(join(userLib, "agent@.service"), "[Service]\nExecStart=/usr/bin/agent %i\n[Install]\nWantedBy=default.target\n");
    const agent = ServiceSchema.parse(service("agent@work", { user: true }));
    const dbus = ServiceSchema.parse(service("dbus", { user: true }));
    const resources = [syncthing, pipewire, agent, dbus];

    const before = await provider.observe(resources, ctx);
    expect(Object.fromEntries([...before].map(([k, o]) => [k, [o.exists, o.enabled, o.unitFileState]]))).toEqual({
      "service:syncthing": [false, false, undefined],
      "service:pipewire": [true, false, "disabled"],
      "service:agent@work": [true, false, "disabled"],
      "service:dbus": [true, undefined, "static"],
    });

    await writeArtifacts(ctx, [syncthing]);
    for (const r of [syncthing, pipewire, agent]) await provider.apply(change(r, "add", ["enable"]), ctx);
    const config = join(ctx.rootDir, "home/alice/.config/systemd/user");
    expect(await readlink(join(config, "default.target.wants/agent@work.service"))).toBe("/usr/lib/systemd/user/agent@.service");
    const after = await provider.observe(resources, ctx);
    expect(Object.fromEntries([...after].map(([k, o]) => [k, [o.exists, o.enabled, o.unitFileState]]))).toEqual({
      "service:syncthing": [true, true, "enabled"],
      "service:pipewire": [true, true, "enabled"],
      "service:agent@work": [true, true, "enabled"],
      "service:dbus": [true, undefined, "static"],
    });

    await provider.remove(change(agent, "remove"), ctx);
    expect((await provider.observe([agent], ctx)).get("service:agent@work")).toMatchObject({ exists: true, enabled: false });
    expect(ctx.runner.lines).toEqual([]);
  });
});
