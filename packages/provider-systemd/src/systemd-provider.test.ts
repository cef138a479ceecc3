import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { ProcessRunner, service, ServiceSchema, timer, TimerSchema, type Operation, type Resource, type ResourceChange } from "@tend/core";
import { applyContext, describeConformance, RecordingRunner } from "@tend/testkit";
import { describe, expect, it, vi } from "vitest";
import { processUid } from "./process-uid.js";
import { systemdProvider as provider } from "./systemd-provider.js";

vi.mock("./process-uid.js", () => ({ processUid: vi.fn(() => 0) }));

const web = ServiceSchema.parse(service("web", { exec: "/opt/web/bin/server --port 8080", restart: "on_failure", reloadSignal: "HUP" }));
const backup = TimerSchema.parse(timer("backup", { exec: "restic backup ~/Documents", schedule: "30 2 * * *" }));
const sshd = ServiceSchema.parse(service("sshd"));
const socket = ServiceSchema.parse(service("nordvpnd.socket"));
const gdm = ServiceSchema.parse(service("gdm", { displayManager: true }));
const sddm = ServiceSchema.parse(service("sddm", { displayManager: true }));
const syncthing = ServiceSchema.parse(service("syncthing", { exec: "syncthing serve --no-browser", user: true, restart: "always" }));

/** `filesChanged`: core's word that the resource's files changed (written in this apply, or newer than what the init may hold). */
function change(resource: Resource, action: ResourceChange["action"], ops: Operation[] = [], filesChanged = false): ResourceChange {
  return { key: `${resource.type}:${resource.name}`, action, resource, ops, filesChanged, reasons: [] };
}

/** What the core does for one apply: removals, (files), afterWrites once, then each add/change. */
async function applyAll(changes: ResourceChange[], paths: string[], ctx: Awaited<ReturnType<typeof applyContext>>) {
  for (const c of changes.filter((c) => c.action === "remove")) await provider.remove(c, ctx);
  await provider.afterWrites!(changes, paths, ctx);
  for (const c of changes.filter((c) => c.action !== "remove")) await provider.apply(c, ctx);
}

describe("apply: system services", () => {
  it("adds: one daemon-reload, then enable and start the new unit", async () => {
    const ctx = await applyContext({ init: "systemd" });
    await applyAll([change(web, "add", ["enable", "start"])], ["/etc/systemd/system/tend-web.service"], ctx);
    expect(ctx.runner.lines).toEqual(["systemctl daemon-reload", "systemctl enable -- tend-web.service", "systemctl start -- tend-web.service"]);
  });

  it("changes: one daemon-reload for all changed units, then restart each", async () => {
    const ctx = await applyContext({ init: "systemd" });
    const other = ServiceSchema.parse(service("other", { exec: "/bin/other" }));
    await applyAll(
      [change(web, "change", ["restart"]), change(other, "change", ["restart"])],
      ["/etc/systemd/system/tend-web.service", "/etc/systemd/system/tend-other.service"],
      ctx,
    );
    expect(ctx.runner.lines).toEqual(["systemctl daemon-reload", "systemctl restart -- tend-web.service", "systemctl restart -- tend-other.service"]);
  });

  it("reloads with systemctl reload, never reload-or-restart, and runs no daemon-reload when no unit changed", async () => {
    const runner = new RecordingRunner().on("systemctl show", { stdout: "Id=tend-web.service\nNeedDaemonReload=no\n" });
    const ctx = await applyContext({ init: "systemd", runner });
    await applyAll([change(web, "change", ["reload"])], ["/etc/web/web.conf"], ctx);
    expect(ctx.runner.lines).toEqual(["systemctl show -p Id,NeedDaemonReload -- tend-web.service", "systemctl reload -- tend-web.service"]);
  });

  it("daemon-reloads before a restart when systemd still holds an old definition (an apply killed before reloading)", async () => {
    const runner = new RecordingRunner().on("systemctl show -p Id,NeedDaemonReload", {
      stdout: "Id=tend-backup.timer\nNeedDaemonReload=no\n\nId=tend-backup.service\nNeedDaemonReload=yes\n\nId=tend-web.service\nNeedDaemonReload=no\n",
    });
    const ctx = await applyContext({ init: "systemd", runner });
    await applyAll([change(backup, "change", ["restart"]), change(web, "change", ["restart"]), change(sshd, "change", ["enable"])], [], ctx);
    expect(runner.lines).toEqual([
      "systemctl show -p Id,NeedDaemonReload -- tend-backup.timer tend-backup.service tend-web.service",
      "systemctl daemon-reload",
      "systemctl restart -- tend-backup.timer",
      "systemctl restart -- tend-web.service",
      "systemctl show -p Id --value -- sshd.service",
      "systemctl enable -- sshd.service",
    ]);
  });

  it("daemon-reloads when core says a change's files are newer than systemd may hold, though none was written now and NeedDaemonReload says no (a restart a killed apply left pending)", async () => {
    const runner = new RecordingRunner().on("systemctl show -p Id,NeedDaemonReload", { stdout: "Id=tend-web.service\nNeedDaemonReload=no\n" });
    const ctx = await applyContext({ init: "systemd", runner });
    await applyAll([change(web, "change", ["restart"], true)], [], ctx);
    expect(runner.lines).toEqual(["systemctl daemon-reload", "systemctl restart -- tend-web.service"]);
  });

  it("daemon-reloads for a unit or drop-in a file resource wrote", async () => {
    const ctx = await applyContext({ init: "systemd" });
    await applyAll([], ["/etc/systemd/system/nginx.service.d/override.conf"], ctx);
    expect(ctx.runner.lines).toEqual(["systemctl daemon-reload"]);
  });

  it("removes: disable --now, then after the files are gone daemon-reload and reset-failed", async () => {
    const ctx = await applyContext({ init: "systemd" });
    await applyAll([change(web, "remove")], ["/etc/systemd/system/tend-web.service"], ctx);
    expect(ctx.runner.lines).toEqual([
      "systemctl disable --now -- tend-web.service",
      "systemctl daemon-reload",
      "systemctl reset-failed -- tend-web.service",
    ]);
    expect(ctx.runner.calls[2]!.okCodes).toEqual([0, 1]);
  });

  it("stops what may still run when the unit file was already deleted by hand", async () => {
    const runner = new RecordingRunner().on("systemctl disable --now", { exitCode: 1, stderr: "Failed to disable unit: Unit file tend-web.service does not exist." });
    const ctx = await applyContext({ init: "systemd", runner });
    await provider.remove(change(web, "remove"), ctx);
    expect(runner.lines).toEqual(["systemctl disable --now -- tend-web.service", "systemctl stop -- tend-web.service"]);
  });

  it("fails a removal when systemctl cannot reach the manager", async () => {
    const runner = new RecordingRunner().on("systemctl", { exitCode: 1, stderr: "Failed to connect to bus: No such file or directory" });
    const ctx = await applyContext({ init: "systemd", runner });
    await expect(provider.remove(change(web, "remove"), ctx)).rejects.toThrow("Failed to connect to bus");
  });
});

describe("apply in batches (one wave)", () => {
  const svcs = (n: number) => Array.from({ length: n }, (_, i) => ServiceSchema.parse(service(`s${i}`, { exec: `/bin/s${i}` })));

  it("enables and starts every new unit with one enable --now; other operations one command each", async () => {
    const ctx = await applyContext({ init: "systemd" });
    const [a, b, c, d] = svcs(4);
    const failures = await provider.applyBatch!(
      [change(a!, "add", ["enable", "start"]), change(b!, "add", ["enable", "start"]), change(c!, "change", ["restart"]), change(d!, "change", ["enable"]), change(backup, "add", ["enable", "start"])],
      ctx,
    );
    expect(failures.size).toBe(0);
    expect(ctx.runner.lines).toEqual([
      "systemctl enable --now -- tend-s0.service tend-s1.service tend-backup.timer",
      "systemctl enable -- tend-s3.service",
      "systemctl restart -- tend-s2.service",
    ]);
  });

  it("pins a failed batch on its unit by trying each alone", async () => {
    const runner = new RecordingRunner()
      .on((argv) => argv.includes("enable") && argv.includes("tend-s1.service"), { exitCode: 1, stderr: "Job for tend-s1.service failed" })
      .on("systemctl", {});
    const ctx = await applyContext({ init: "systemd", runner });
    const failures = await provider.applyBatch!(svcs(3).map((s) => change(s, "add", ["enable", "start"])), ctx);
    expect([...failures.keys()]).toEqual(["service:s1"]);
    expect(runner.lines).toEqual([
      "systemctl enable --now -- tend-s0.service tend-s1.service tend-s2.service",
      "systemctl enable --now -- tend-s0.service",
      "systemctl enable --now -- tend-s1.service",
      "systemctl enable --now -- tend-s2.service",
    ]);
  });

  it("removes with one disable --now, and only disables the units that refuse a manual stop or start", async () => {
    const ctx = await applyContext({ init: "systemd" });
    const [a, b] = svcs(2);
    const keep = ServiceSchema.parse(service("keep", { exec: "/bin/keep", systemd: { unit: { RefuseManualStop: true } } }));
    const boot = ServiceSchema.parse(service("boot", { exec: "/bin/boot", systemd: { unit: { RefuseManualStart: true } } }));
    const failures = await provider.removeBatch!([a!, keep, b!, boot].map((r) => change(r, "remove")), ctx);
    expect(failures.size).toBe(0);
    expect(ctx.runner.lines).toEqual(["systemctl disable --now -- tend-s0.service tend-s1.service", "systemctl disable -- tend-keep.service tend-boot.service"]);
    expect(ctx.logged).toEqual([
      "service:keep: disabled, not stopped: its unit refuses a manual start or stop (it stops with the host)",
      "service:boot: disabled, not stopped: its unit refuses a manual start or stop (it stops with the host)",
    ]);
  });

  it("never stops a unit that refuses it on the one-by-one path either", async () => {
    const ctx = await applyContext({ init: "systemd" });
    const keep = ServiceSchema.parse(service("keep", { exec: "/bin/keep", systemd: { unit: { RefuseManualStop: "yes" } } }));
    await provider.remove(change(keep, "remove"), ctx);
    expect(ctx.runner.lines).toEqual(["systemctl disable -- tend-keep.service"]);
  });
});

describe("apply: timers", () => {
  it("enables and starts the .timer, never its static .service", async () => {
    const ctx = await applyContext({ init: "systemd" });
    await applyAll([change(backup, "add", ["enable", "start"])], ["/etc/systemd/system/tend-backup.service", "/etc/systemd/system/tend-backup.timer"], ctx);
    expect(ctx.runner.lines).toEqual(["systemctl daemon-reload", "systemctl enable -- tend-backup.timer", "systemctl start -- tend-backup.timer"]);
  });

  it("removes both units", async () => {
    const ctx = await applyContext({ init: "systemd" });
    await applyAll([change(backup, "remove")], ["/etc/systemd/system/tend-backup.service", "/etc/systemd/system/tend-backup.timer"], ctx);
    expect(ctx.runner.lines).toEqual([
      "systemctl disable --now -- tend-backup.timer tend-backup.service",
      "systemctl daemon-reload",
      "systemctl reset-failed -- tend-backup.timer tend-backup.service",
    ]);
  });
});

describe("apply: distro units", () => {
  it("only enables, by the name as given when it carries a suffix", async () => {
    const ctx = await applyContext({ init: "systemd" });
    await applyAll([change(sshd, "add", ["enable"]), change(socket, "add", ["enable"])], [], ctx);
    expect(ctx.runner.lines).toEqual([
      "systemctl show -p Id --value -- sshd.service",
      "systemctl enable -- sshd.service",
      "systemctl show -p Id --value -- nordvpnd.socket",
      "systemctl enable -- nordvpnd.socket",
    ]);
  });

  it("enables and disables an alias by its real unit, which systemd insists on (Debian's sshd.service)", async () => {
    const runner = new RecordingRunner().on("systemctl show -p Id --value -- sshd.service", { stdout: "ssh.service\n" });
    const ctx = await applyContext({ init: "systemd", runner });
    await provider.apply(change(sshd, "add", ["enable", "start"]), ctx);
    await provider.remove(change(sshd, "remove"), ctx);
    expect(runner.lines).toEqual([
      "systemctl show -p Id --value -- sshd.service",
      "systemctl enable -- ssh.service",
      "systemctl start -- sshd.service",
      "systemctl show -p Id --value -- sshd.service",
      "systemctl disable -- ssh.service",
    ]);
  });

  it("removal disables and leaves the distro's files (no stop, no reset-failed, no daemon-reload)", async () => {
    const ctx = await applyContext({ init: "systemd" });
    await applyAll([change(socket, "remove")], [], ctx);
    expect(ctx.runner.lines).toEqual(["systemctl show -p Id --value -- nordvpnd.socket", "systemctl disable -- nordvpnd.socket"]);
  });

  it("treats a failed disable of a unit whose files are gone as done, and of one still there as a failure", async () => {
    const gone = new RecordingRunner()
      .on("systemctl disable", { exitCode: 1, stderr: "Failed to disable unit: Unit file sshd.service does not exist." })
      .on("systemctl list-unit-files", { exitCode: 1, stdout: "[]\n" });
    await provider.remove(change(sshd, "remove"), await applyContext({ init: "systemd", runner: gone }));
    expect(gone.lines).toEqual([
      "systemctl show -p Id --value -- sshd.service",
      "systemctl disable -- sshd.service",
      "systemctl list-unit-files --output=json -- sshd.service",
    ]);

    const there = new RecordingRunner()
      .on("systemctl disable", { exitCode: 1, stderr: "Access denied" })
      .on("systemctl list-unit-files", { stdout: '[{"unit_file":"sshd.service","state":"alias","preset":null}]' });
    await expect(provider.remove(change(sshd, "remove"), await applyContext({ init: "systemd", runner: there }))).rejects.toThrow("Access denied");
  });
});

describe("apply: display manager", () => {
  it("sets graphical.target as the default, remembers the one it replaced, and puts it back on removal", async () => {
    const runner = new RecordingRunner().on("systemctl get-default", { stdout: "multi-user.target\n" }, 1).on("systemctl get-default", { stdout: "graphical.target\n" });
    const ctx = await applyContext({ init: "systemd", runner });
    await applyAll([change(gdm, "add", ["enable"])], [], ctx);
    expect(runner.lines).toEqual([
      "systemctl get-default",
      "systemctl set-default -- graphical.target",
      "systemctl show -p Id --value -- gdm.service",
      "systemctl enable -- gdm.service",
    ]);
    expect(ctx.state.get("displayManager")).toEqual({ replaced: "multi-user.target", by: ["service:gdm"] });
    expect(ctx.logged).toEqual(["service:gdm: default target set to graphical.target (was multi-user.target)"]);

    runner.clear();
    await applyAll([change(gdm, "remove")], [], ctx);
    expect(runner.lines).toEqual([
      "systemctl show -p Id --value -- gdm.service",
      "systemctl disable -- gdm.service",
      "systemctl get-default",
      "systemctl set-default -- multi-user.target",
    ]);
    expect(ctx.state.get("displayManager")).toBeUndefined();
  });

  it("fixes drift of the default target on a change with no operations", async () => {
    const runner = new RecordingRunner().on("systemctl get-default", { stdout: "multi-user.target\n" });
    const ctx = await applyContext({ init: "systemd", runner });
    ctx.state.set("displayManager", { by: ["service:gdm"] });
    await provider.apply(change(gdm, "change", []), ctx);
    expect(runner.lines).toEqual(["systemctl get-default", "systemctl set-default -- graphical.target"]);
    expect(ctx.state.get("displayManager")).toEqual({ replaced: "multi-user.target", by: ["service:gdm"] });
  });

  it("keeps graphical.target while another display manager is declared, and touches nothing when it was already the default", async () => {
    const runner = new RecordingRunner().on("systemctl get-default", { stdout: "graphical.target\n" });
    const ctx = await applyContext({ init: "systemd", runner });
    await applyAll([change(gdm, "add", ["enable"]), change(sddm, "add", ["enable"])], [], ctx);
    expect(runner.lines.filter((l) => !l.startsWith("systemctl show"))).toEqual([
      "systemctl get-default",
      "systemctl enable -- gdm.service",
      "systemctl get-default",
      "systemctl enable -- sddm.service",
    ]);
    runner.clear();
    await provider.remove(change(gdm, "remove"), ctx);
    expect(ctx.state.get("displayManager")).toEqual({ by: ["service:sddm"] });
    await provider.remove(change(sddm, "remove"), ctx);
    expect(runner.lines.filter((l) => !l.startsWith("systemctl show"))).toEqual(["systemctl disable -- gdm.service", "systemctl disable -- sddm.service"]);
    expect(ctx.state.get("displayManager")).toBeUndefined();
  });
});

describe("apply: user services", () => {
  it("goes through alice's own manager with -M alice@ when run as root", async () => {
    const ctx = await applyContext({ init: "systemd", scope: "user" });
    await applyAll([change(syncthing, "add", ["enable", "start"])], ["/home/alice/.config/systemd/user/tend-syncthing.service"], ctx);
    await applyAll([change(syncthing, "remove")], ["/home/alice/.config/systemd/user/tend-syncthing.service"], ctx);
    expect(ctx.runner.lines).toEqual([
      "systemctl --user -M alice@ daemon-reload",
      "systemctl --user -M alice@ enable -- tend-syncthing.service",
      "systemctl --user -M alice@ start -- tend-syncthing.service",
      "systemctl --user -M alice@ disable --now -- tend-syncthing.service",
      "systemctl --user -M alice@ daemon-reload",
      "systemctl --user -M alice@ reset-failed -- tend-syncthing.service",
    ]);
  });

  it("says the user's manager is not running when systemctl finds no bus, and how to start it", async () => {
    vi.mocked(processUid).mockReturnValue(1000);
    try {
      const runner = new RecordingRunner().on(/^systemctl --user /, { exitCode: 1, stderr: "Failed to connect to bus: No such file or directory\n" });
      const ctx = await applyContext({ init: "systemd", scope: "user", runner });
      const error = await provider.observe([syncthing], ctx).catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: "TEND_SYSTEMD_NO_USER_MANAGER",
        message: "alice's systemd user manager is not running, so tend can neither see nor start alice's units (systemctl --user: Failed to connect to bus: No such file or directory)",
        hint: "As root, `loginctl enable-linger alice` starts it now and at every boot, or run tend in a login session of alice's",
      });
      // another failure is reported as it is
      const other = new RecordingRunner().on(/^systemctl --user /, { exitCode: 1, stderr: "Access denied\n" });
      const failed = await provider.observe([syncthing], await applyContext({ init: "systemd", scope: "user", runner: other })).catch((e: unknown) => e);
      expect(failed).toMatchObject({ code: "TEND_COMMAND_FAILED" });
    } finally {
      vi.mocked(processUid).mockReturnValue(0);
    }
  });

  it("uses plain --user with XDG_RUNTIME_DIR when run as alice", async () => {
    vi.mocked(processUid).mockReturnValue(1000);
    try {
      const ctx = await applyContext({ init: "systemd", scope: "user" });
      await applyAll([change(syncthing, "add", ["enable", "start"])], ["/home/alice/.config/systemd/user/tend-syncthing.service"], ctx);
      expect(ctx.runner.calls.map((c) => [c.argv.join(" "), c.env?.XDG_RUNTIME_DIR])).toEqual([
        ["systemctl --user daemon-reload", "/run/user/1000"],
        ["systemctl --user enable -- tend-syncthing.service", "/run/user/1000"],
        ["systemctl --user start -- tend-syncthing.service", "/run/user/1000"],
      ]);
    } finally {
      vi.mocked(processUid).mockReturnValue(0);
    }
  });
});

describe("apply offline (--root DIR)", () => {
  it("enables in the image with systemctl --root, starts nothing, reloads nothing", async () => {
    const ctx = await applyContext({ init: "systemd", offline: true });
    await applyAll([change(web, "add", ["enable", "start"]), change(sshd, "add", ["enable"])], ["/etc/systemd/system/tend-web.service"], ctx);
    await applyAll([change(backup, "remove")], ["/etc/systemd/system/tend-backup.timer"], ctx);
    expect(ctx.runner.lines).toEqual([
      `systemctl --root=${ctx.rootDir} enable -- tend-web.service`,
      `systemctl --root=${ctx.rootDir} enable -- sshd.service`,
      `systemctl --root=${ctx.rootDir} disable -- tend-backup.timer`,
    ]);
    expect(ctx.logged).toEqual(["service:web: not started: applying into an image root, where nothing runs until it boots"]);
  });
});

describeConformance({
  provider,
  packageJson: new URL("../package.json", import.meta.url),
  init: "systemd",
  runner: () => new RecordingRunner().on(/ list-unit-files /, { stdout: "[]" }).on(/ list-units /, { stdout: "[]" }),
  // systemctl --root edits an image root without a running manager: the real one, on this machine.
  offlineRunner: () => new ProcessRunner(),
  prepareRoot: (root) => mkdir(join(root, "etc/systemd/system"), { recursive: true }).then(() => undefined),
});

describe("the provider", () => {
  it("declares what it can express as data", () => {
    expect(provider.capabilities).toEqual({
      service: { userServices: true, distroUnits: true, after: "targets", escapeHatch: "systemd", displayManager: true, reloadSignal: true },
      timer: { userTimers: true, skippedTimes: "skip" },
    });
  });
});
