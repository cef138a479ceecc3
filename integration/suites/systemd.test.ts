import { startHost, type TestHost } from "@tend/testkit/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applySpec, planSpec } from "../support/apply-spec.js";
import { DEMO, demoLog } from "../support/demo-daemon.js";
import { GREETING } from "../support/greeting.js";
import { doc, spec } from "../support/spec-documents.js";

/**
 * @tend/provider-systemd against systemd booted as PID 1 (Debian 12, systemd 252), driven through
 * the tend CLI as an admin would: the seed's examples (web with MemoryMax and StartLimitBurst, a
 * oneshot with RemainAfterExit, syncthing as a lingering user's service, sshd and a display
 * manager as distro units, the backup and gc timers, and a timer that really fires), idempotence,
 * drift, removal, verification, reloads, static units and `--root`.
 */

const SPEC = "/spec/tend.yaml";

/** Stands in for the gdm3 package's unit (Debian's has the same [Install]). */
const GDM_UNIT = `[Unit]
Description=Stand-in display manager
[Service]
ExecStart=/opt/demo/bin/demo gdm
[Install]
Alias=display-manager.service
`;

const SEED_WEB = `# Managed by tend. Edits are overwritten on the next apply.

[Unit]
Description=web
StartLimitBurst=3

[Service]
ExecStart=/opt/web/bin/server --port 8080
Restart=on-failure
Environment="RUST_LOG=info"
MemoryMax=512M

[Install]
WantedBy=multi-user.target
`;

const WEB = doc(`
type: Service
name: web
exec: /opt/web/bin/server --port 8080
restart: on_failure
env:
  RUST_LOG: info
systemd:
  MemoryMax: 512M
  unit:
    StartLimitBurst: 3
`);
const ONCE = doc(`
type: Service
name: mount-data
exec: /opt/demo/bin/mount-data
systemd:
  Type: oneshot
  RemainAfterExit: true
  unit:
    Before: systemd-user-sessions.service
`);
const GREET = doc(`
type: Service
name: greet
exec: ${JSON.stringify(`printf '%s|%s\\n' "$GREETING" 100% > /var/tmp/greet.out; exec /opt/demo/bin/demo greet`)}
restart: always
env:
  GREETING: ${JSON.stringify(GREETING)}
`);
const GC = doc(`
type: Timer
name: gc
exec: /usr/local/bin/tend gc --older-than 14d
schedule: "@weekly"
`);
const TICK = doc(`
type: Timer
name: tick
exec: "date +%s >> /var/tmp/tick"
schedule: "* * * * *"
`);
const SSHD = doc("type: Service\nname: sshd");
const SYNCTHING = doc(`
type: Service
name: syncthing
exec: syncthing serve --no-browser
user: true
restart: always
after: [network]
`);
const BACKUP = doc(`
type: Timer
name: backup
exec: restic backup ~/Documents
schedule: "30 2 * * *"
user: true
`);
const BASE = [WEB, ONCE, GREET, GC, TICK, SSHD, SYNCTHING, BACKUP];

describe("services and timers on a booted systemd", () => {
  let host: TestHost;

  beforeAll(async () => {
    host = await startHost("systemd");
    await host.writeFile("/opt/demo/bin/demo", DEMO, { mode: 0o755 });
    await host.writeFile("/opt/web/bin/server", "#!/bin/sh\nexec /opt/demo/bin/demo web\n", { mode: 0o755 });
    await host.writeFile("/opt/demo/bin/mount-data", "#!/bin/sh\necho mounted >> /var/tmp/mount-data\n", { mode: 0o755 });
    await host.writeFile("/usr/local/bin/syncthing", "#!/bin/sh\nexec /opt/demo/bin/demo syncthing\n", { mode: 0o755 });
  });

  afterAll(async () => {
    await host?.stop();
  });

  /** Writes the spec and applies it: the system scope, then alice's. */
  async function apply(docs: string[], exitCode = 0): Promise<string> {
    const system = await applySpec(host, SPEC, docs, exitCode);
    return system + (await host.expectTend(["apply", "-f", SPEC, "--user", "alice"]));
  }

  const plan = (exitCode: number, ...extra: string[]) => planSpec(host, SPEC, exitCode, ...extra);
  const show = async (unit: string, property: string, user = false) =>
    (await host.mustSh(`systemctl ${user ? "--user -M alice@ " : ""}show -p ${property} --value -- ${unit}`)).trim();
  const mainPid = (unit: string) => show(unit, "MainPID");
  const invocation = (unit: string) => show(unit, "InvocationID");
  const exists = async (path: string) => (await host.exec(["test", "-e", path])).exitCode === 0;

  it("serves services and timers with the systemd provider", async () => {
    await host.writeFile(SPEC, spec(...BASE));
    expect(await host.expectTend(["providers", "-f", SPEC])).toMatch(/^\* @tend\/provider-systemd@\S+\s+service, timer on systemd/m);
    const planned = await plan(2);
    expect(planned).toContain("host systemd-host (systemd)");
    expect(planned).toContain("+ service:web  /opt/web/bin/server --port 8080");
    expect(planned).toContain("+ service:sshd  enable the distro unit");
  });

  it("adds the seed's services and timers: units written, enabled, started, verified", async () => {
    const output = await apply(BASE);
    for (const key of ["service:web", "service:mount-data", "service:greet", "service:syncthing"]) expect(output).toContain(`${key}: verified`);

    expect(await host.readFile("/etc/systemd/system/tend-web.service")).toBe(SEED_WEB);
    expect(await show("tend-web.service", "MemoryMax")).toBe(String(512 * 1024 * 1024));
    expect(await show("tend-web.service", "StartLimitBurst")).toBe("3");
    expect(await show("tend-web.service", "ActiveState")).toBe("active");
    expect(await host.mustSh("systemctl is-enabled tend-web.service")).toBe("enabled\n");
    expect((await host.mustSh(`tr '\\0' '\\n' < /proc/${await mainPid("tend-web.service")}/environ`)).split("\n")).toContain("RUST_LOG=info");

    expect(`${await show("tend-mount-data.service", "ActiveState")}/${await show("tend-mount-data.service", "SubState")}`).toBe("active/exited");
    expect(await host.readFile("/var/tmp/mount-data")).toBe("mounted\n");

    // sshd is Debian's alias of ssh.service, which the package already enabled: nothing to do
    expect(await host.mustSh("systemctl is-enabled ssh.service")).toBe("enabled\n");
  });

  it("passes values through escaped: the program sees exactly what the spec said", async () => {
    const pid = await mainPid("tend-greet.service");
    expect((await host.mustSh(`tr '\\0' '\\n' < /proc/${pid}/environ`)).split("\n")).toContain(`GREETING=${GREETING}`);
    expect(await host.readFile("/var/tmp/greet.out")).toBe(`${GREETING}|100%\n`);
    expect(await exists("/tmp/pwned")).toBe(false);
  });

  it("runs syncthing as alice's user service under her lingering manager", async () => {
    const unit = "/home/alice/.config/systemd/user/tend-syncthing.service";
    expect(await host.mustSh(`stat -c '%U %a' ${unit}`)).toBe("alice 644\n");
    expect(await host.readFile(unit)).toContain("[Unit]\nDescription=syncthing\nAfter=network-online.target\n\n[Service]\nExecStart=/usr/bin/env syncthing serve --no-browser\n");
    expect(await show("tend-syncthing.service", "ActiveState", true)).toBe("active");
    expect(await host.mustSh("systemctl --user -M alice@ is-enabled tend-syncthing.service")).toBe("enabled\n");
    expect(await host.mustSh("stat -c %U /proc/$(systemctl --user -M alice@ show -p MainPID --value tend-syncthing.service)")).toBe("alice\n");
  });

  it("schedules the timers: gc on Sundays, alice's backup at 02:30, enabled and waiting", async () => {
    expect(await show("tend-gc.timer", "TimersCalendar")).toContain("OnCalendar=Sun *-*-* 00:00:00");
    expect(await host.mustSh("systemctl is-enabled tend-gc.timer")).toBe("enabled\n");
    expect(await show("tend-gc.timer", "SubState")).toBe("waiting");
    expect(await host.mustSh("systemctl list-timers --all --no-legend tend-gc.timer")).toMatch(/^Sun \d{4}-\d\d-\d\d 00:00:00 /);
    expect(await show("tend-backup.timer", "TimersCalendar", true)).toContain("OnCalendar=*-*-* 02:30:00");
    expect(await show("tend-backup.timer", "SubState", true)).toBe("waiting");
    expect(await host.mustSh("systemctl --user -M alice@ is-enabled tend-backup.timer")).toBe("enabled\n");
  });

  it("fires a timer on its minute, running its oneshot service", async () => {
    const ticks = await host.waitFor(
      async () => {
        const text = (await host.exec(["cat", "/var/tmp/tick"])).stdout;
        return text.trim() === "" ? undefined : text;
      },
      { timeoutMs: 80_000, what: "tend-tick.timer to fire" },
    );
    // `%s` reached date as written: it printed the epoch second, on a minute boundary (AccuracySec=1s)
    const second = Number(ticks.trim().split("\n")[0]);
    expect(Number.isInteger(second)).toBe(true);
    expect(second % 60).toBeLessThanOrEqual(2);
    expect(await show("tend-tick.service", "Result")).toBe("success");
  }, 120_000);

  it("plans nothing on a second run, in both scopes, as root and as alice", async () => {
    expect(await plan(0)).toContain("0 to add, 0 to change, 0 to remove");
    expect(await plan(0, "--user", "alice")).toContain("0 to add, 0 to change, 0 to remove");
    expect(await host.expectTend(["plan", "-f", SPEC, "--user", "--detailed-exitcode"], { user: "alice" })).toContain("0 to add, 0 to change, 0 to remove");
  });

  it("reports a hand-edited unit as drift and restores it, restarting the service", async () => {
    const before = await invocation("tend-web.service");
    await host.writeFile("/etc/systemd/system/tend-web.service", SEED_WEB.replace("MemoryMax=512M", "MemoryMax=1G"));
    expect(await plan(2)).toContain("! service:web drifted: /etc/systemd/system/tend-web.service was edited");
    await apply(BASE);
    expect(await host.readFile("/etc/systemd/system/tend-web.service")).toBe(SEED_WEB);
    expect(await show("tend-web.service", "MemoryMax")).toBe(String(512 * 1024 * 1024));
    expect(await show("tend-web.service", "NeedDaemonReload")).toBe("no");
    expect(await invocation("tend-web.service")).not.toBe(before);
    expect(await show("tend-web.service", "ActiveState")).toBe("active");
    await plan(0);
  });

  it("fails verification for a program that exits a second after starting, showing its journal", async () => {
    const flaky = doc("type: Service\nname: flaky\nexec: /opt/demo/bin/demo flaky 1\nrestart: always");
    await host.writeFile(SPEC, spec(...BASE, flaky));
    const output = await host.expectTend(["apply", "-f", SPEC], { exitCode: 1 });
    expect(output).toMatch(/service:flaky did not verify: it (restarted|stopped) within 2 s of starting/);
    expect(output).toContain("tend-flaky.service");
    expect(output).toMatch(/last log lines:[\s\S]*tend-flaky\.service/);
    await apply(BASE);
    expect(await exists("/etc/systemd/system/tend-flaky.service")).toBe(false);
  });

  describe("reloadOn", () => {
    const conf = (content: string) => doc(`type: File\nname: conf\npath: /etc/demo.conf\ncontent: "${content}\\n"`);
    const RELOADER = doc('type: Service\nname: reloader\nexec: /opt/demo/bin/demo reloader\nrestart: always\nreloadSignal: HUP\nreloadOn: ["file:conf"]');
    const PLAIN = doc("type: Service\nname: plain\nexec: /opt/demo/bin/demo plain\nrestart: always");
    const SSHD_RELOAD = doc('type: Service\nname: sshd\nreloadOn: ["file:conf"]\ndesired: {state: running, enabled: true}');
    const others = BASE.filter((d) => d !== SSHD);

    it("reloads in place: ExecReload= from reloadSignal, and a distro unit's own reload through its alias", async () => {
      await apply([...others, conf("one"), RELOADER, PLAIN, SSHD_RELOAD]);
      const reloader = { pid: await mainPid("tend-reloader.service"), id: await invocation("tend-reloader.service") };
      const ssh = { pid: await mainPid("ssh.service"), id: await invocation("ssh.service") };
      const output = await apply([...others, conf("two"), RELOADER, PLAIN, SSHD_RELOAD]);
      expect(output).toContain("service:reloader: changed, reloaded (file:conf changed, reloadOn matched)");
      expect(output).toContain("service:sshd: changed, reloaded (file:conf changed, reloadOn matched)");
      await host.waitFor(async () => (await demoLog(host, "reloader")).includes(`hup ${reloader.pid}`), { timeoutMs: 10_000, what: "the reloader to get SIGHUP" });
      expect(await invocation("tend-reloader.service")).toBe(reloader.id);
      expect(await invocation("ssh.service")).toBe(ssh.id);
      expect(await mainPid("ssh.service")).toBe(ssh.pid);
    });

    it("fails for a unit that cannot reload, and restarts nothing instead", async () => {
      const before = await invocation("tend-plain.service");
      const plainReload = PLAIN.replace("restart: always", 'restart: always\nreloadOn: ["file:conf"]');
      await host.writeFile(SPEC, spec(...others, conf("three"), RELOADER, plainReload, SSHD_RELOAD));
      expect(await host.expectTend(["apply", "-f", SPEC], { exitCode: 1 })).toContain("service:plain lists resources in reloadOn, but it cannot reload on systemd");
      expect(await host.readFile("/etc/demo.conf")).toBe("two\n");
      expect(await invocation("tend-plain.service")).toBe(before);
      await apply(BASE);
      expect(await exists("/etc/systemd/system/tend-reloader.service")).toBe(false);
    });
  });

  describe("distro units", () => {
    const GDM = doc("type: Service\nname: gdm\ndisplayManager: true");

    beforeAll(async () => {
      await host.writeFile("/lib/systemd/system/gdm.service", GDM_UNIT);
      await host.mustSh("systemctl daemon-reload && systemctl set-default multi-user.target");
    });

    it("enables a display manager without starting it, and boots the host to graphical.target", async () => {
      const output = await apply([...BASE, GDM]);
      expect(output).toContain("service:gdm: default target set to graphical.target (was multi-user.target)");
      expect(await host.mustSh("systemctl get-default")).toBe("graphical.target\n");
      expect(await host.mustSh("systemctl is-enabled gdm.service")).toBe("enabled\n");
      expect(await host.mustSh("readlink /etc/systemd/system/display-manager.service")).toBe("/lib/systemd/system/gdm.service\n");
      expect(await show("gdm.service", "ActiveState")).toBe("inactive");
      await plan(0);
    });

    it("reports another default target as drift and sets it back", async () => {
      await host.mustSh("systemctl set-default multi-user.target");
      expect(await plan(2)).toContain("! service:gdm drifted: the host boots to multi-user.target, not graphical.target");
      await apply([...BASE, GDM]);
      expect(await host.mustSh("systemctl get-default")).toBe("graphical.target\n");
      await plan(0);
    });

    it("reports a unit no longer enabled as drift and enables it again", async () => {
      await host.mustSh("systemctl disable gdm.service");
      const planned = await plan(2);
      expect(planned).toMatch(/~ service:gdm {2}enable/);
      expect(planned).toContain("not enabled at boot, want enabled");
      await apply([...BASE, GDM]);
      expect(await host.mustSh("systemctl is-enabled gdm.service")).toBe("enabled\n");
      expect(await show("gdm.service", "ActiveState")).toBe("inactive");
    });

    it("disables on removal, leaves the distro's files, and puts back the default it replaced", async () => {
      const noSshd = BASE.filter((d) => d !== SSHD);
      await apply(noSshd);
      expect((await host.exec(["systemctl", "is-enabled", "gdm.service"])).stdout).toBe("disabled\n");
      expect(await host.mustSh("systemctl get-default")).toBe("multi-user.target\n");
      expect(await host.readFile("/lib/systemd/system/gdm.service")).toBe(GDM_UNIT);
      // sshd went too: Debian's ssh.service is disabled by its real name, its files untouched
      expect((await host.exec(["systemctl", "is-enabled", "ssh.service"])).stdout).toBe("disabled\n");
      expect(await exists("/lib/systemd/system/ssh.service")).toBe(true);
      await host.mustSh("systemctl enable ssh.service");
      await apply(BASE);
    });

    it("fails apply for a unit the init does not know, naming the likely missing requires", async () => {
      await host.writeFile(SPEC, spec(...BASE, doc("type: Service\nname: nosuch")));
      const output = await host.expectTend(["apply", "-f", SPEC], { exitCode: 1 });
      expect(output).toContain("service:nosuch has no exec, but the init knows no unit `nosuch`; tend never creates one");
      expect(output).toContain("missing `requires`");
      await apply(BASE);
    });

    it("never counts a static unit's enabled-ness as drift", async () => {
      const journald = doc("type: Service\nname: systemd-journald\ndesired: {state: running, enabled: true}");
      await apply([...BASE, journald]);
      await plan(0);
      const observed = await host.expectTend(["observe", "-f", SPEC, "service:systemd-journald"]);
      expect(observed).toMatch(/enabled\s+unobservable \(static\)/);
      await apply(BASE);
    });
  });

  it("fails plan with the seed's error for the launchd escape hatch", async () => {
    await host.writeFile(SPEC, spec(...BASE, doc("type: Service\nname: notes\nexec: /opt/demo/bin/demo notes\nlaunchd:\n  ProcessType: Background")));
    expect(await host.expectTend(["plan", "-f", SPEC], { exitCode: 1 })).toContain("service:notes sets `launchd` (ProcessType), which only launchd supports, and this host uses systemd");
  });

  it("applies into an image root with --root: units written and enabled there, nothing started here", async () => {
    const image = doc("type: Service\nname: imaged\nexec: /opt/demo/bin/demo imaged\nrestart: always");
    await host.writeFile("/spec/image.yaml", spec(image, GC));
    await host.mustSh("mkdir -p /srv/image");
    await host.expectTend(["apply", "-f", "/spec/image.yaml", "--root", "/srv/image"]);
    expect(await host.mustSh("readlink /srv/image/etc/systemd/system/multi-user.target.wants/tend-imaged.service")).toBe("/etc/systemd/system/tend-imaged.service\n");
    expect(await host.mustSh("readlink /srv/image/etc/systemd/system/timers.target.wants/tend-gc.timer")).toBe("/etc/systemd/system/tend-gc.timer\n");
    expect(await show("tend-imaged.service", "LoadState")).toBe("not-found");
    expect(await demoLog(host, "imaged")).toBe("");
    await host.expectTend(["plan", "-f", "/spec/image.yaml", "--root", "/srv/image", "--detailed-exitcode"], { exitCode: 0 });
  });

  it("removes services and timers: stopped, disabled, unit files deleted, forgotten by systemd", async () => {
    const webPid = await mainPid("tend-web.service");
    const syncPid = await show("tend-syncthing.service", "MainPID", true);
    await apply([]);
    for (const unit of ["tend-web.service", "tend-mount-data.service", "tend-greet.service", "tend-gc.timer", "tend-gc.service", "tend-tick.timer", "tend-tick.service"]) {
      expect(await exists(`/etc/systemd/system/${unit}`)).toBe(false);
      expect(await show(unit, "LoadState")).toBe("not-found");
    }
    expect(await host.mustSh("ls /etc/systemd/system/multi-user.target.wants /etc/systemd/system/timers.target.wants")).not.toContain("tend-");
    for (const unit of ["tend-syncthing.service", "tend-backup.timer", "tend-backup.service"]) {
      expect(await exists(`/home/alice/.config/systemd/user/${unit}`)).toBe(false);
      expect(await show(unit, "LoadState", true)).toBe("not-found");
    }
    expect(await exists(`/proc/${webPid}`)).toBe(false);
    expect(await exists(`/proc/${syncPid}`)).toBe(false);
    expect(await demoLog(host, "web")).toContain(`term ${webPid}`);
    await plan(0);
  });
});
