import { copyFile, lstat, mkdir, readlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ExecaRunner, service, ServiceSchema, timer, TimerSchema, type Operation, type Resource, type ResourceChange } from "@tend/core";
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
    const real = { ...ctx, run: new ExecaRunner() };
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

  it("observes offline with list-unit-files only: enabled-ness, never running", async () => {
    const runner = new RecordingRunner().on(/^systemctl --root=\S+ list-unit-files/, {
      stdout: '[{"unit_file":"gdm.service","state":"disabled","preset":"enabled"},{"unit_file":"tend-backup.service","state":"static","preset":null},{"unit_file":"tend-backup.timer","state":"enabled","preset":"enabled"}]',
    });
    const ctx = await applyContext({ init: "systemd", offline: true, runner });
    const observed = await provider.observe([backup, ServiceSchema.parse(service("gdm"))], ctx);
    expect(runner.lines).toEqual([`systemctl --root=${ctx.rootDir} list-unit-files --output=json -- tend-* gdm.service`]);
    expect(observed.get("timer:backup")).toEqual({ exists: true, enabled: true, unitFileState: "enabled", details: { preset: "enabled" } });
    expect(observed.get("service:gdm")).toMatchObject({ exists: true, enabled: false });
    expect(observed.get("service:gdm")?.state).toBeUndefined();
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
});
