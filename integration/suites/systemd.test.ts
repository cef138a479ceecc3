import type { ReadContext } from "@tend/core";
import { startHost, type TestHost } from "@tend/testkit/harness";
import { mainPidsFromCgroups, TEND_SERVICES } from "../../packages/provider-systemd/src/main-pids-from-cgroups.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applySpec, planSpec } from "../support/apply-spec.js";
import { convergeDistro, convergeService, EVERY_DESIRED_STATE } from "../support/desired-states.js";
import { proveCrossScopeAfterRefused } from "../support/cross-scope-after.js";
import { bootUserService, proveBootTruth } from "../support/boot-truth.js";
import { DEMO, demoLog } from "../support/demo-daemon.js";
import { EXEC_FORMS, hupsReceived, livePids, startedPids, type ExecForm } from "../support/exec-forms.js";
import { GREETING } from "../support/greeting.js";
import { proveModeDrift } from "../support/file-modes.js";
import { proveKilledBeforeLoad } from "../support/killed-before-load.js";
import { proveVerifyAcrossClockStep } from "../support/clock-step.js";
import { proveOlderDefinitionRestart } from "../support/older-definition.js";
import { proveLedgerYieldsToSpec } from "../support/ledger-yields.js";
import { proveRestartLedger } from "../support/restart-ledger.js";
import { proveStaleBuildRestart } from "../support/stale-build.js";
import { provePurePlans } from "../support/side-effects.js";
import { proveRandomWalk, WALK, WALK_TIMEOUT_MS, withoutWalkCopies, type WalkOptions } from "../support/random-walk.js";
import { proveDeletedDefinition } from "../support/deleted-definition.js";
import { doc, spec } from "../support/spec-documents.js";

/** What an admin does by hand in the random walk: edit or delete a service's definition, stop it, disable it. */
const BY_HAND: WalkOptions["byHand"] = { definition: (unit) => `/etc/systemd/system/${unit}.service`, stop: (unit) => ["systemctl", "stop", `${unit}.service`], disable: (unit) => ["systemctl", "disable", `${unit}.service`] };

/** The same in alice's scope. */
const BY_HAND_ALICE: WalkOptions["byHand"] = { definition: (unit) => `/home/alice/.config/systemd/user/${unit}.service`, stop: (unit) => ["systemctl", "--user", "-M", "alice@", "stop", `${unit}.service`], disable: (unit) => ["systemctl", "--user", "-M", "alice@", "disable", `${unit}.service`] };

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

  it("reads a running service's main pid from its control group exactly as systemctl says it", async () => {
    // The host's services (ssh, cron, journald…) and tend's: one shell for all, each answer checked.
    const units = (await host.mustSh("systemctl list-units --type=service --state=running --no-legend --plain | cut -d' ' -f1")).trim().split("\n");
    expect(units).toContain("tend-web.service");
    const ctx = { scope: { kind: "system" }, run: { run: async (command: { argv: string[] }) => host.exec(command.argv) }, files: {} } as unknown as ReadContext;
    const pids = await mainPidsFromCgroups(units, ctx);
    expect(pids.get("tend-web.service")).toBe(Number(await mainPid("tend-web.service")));
    expect(pids.size).toBeGreaterThan(units.length / 2);
    for (const [unit, pid] of pids) expect(`${unit} ${pid}`).toBe(`${unit} ${await mainPid(unit)}`);
    // tend's services found by the shell (what a plan asks) answer the same
    expect(await mainPidsFromCgroups([TEND_SERVICES, ...units.filter((unit) => !unit.startsWith("tend-"))], ctx)).toEqual(pids);
    // and so do the same files read directly, as on the host tend runs on (HostFiles.local), no process run
    const refusing = { run: () => Promise.reject(new Error("no process when reading the host's own files")) };
    const direct = { ...ctx, run: refusing, files: containerFiles(host) } as unknown as ReadContext;
    expect(await mainPidsFromCgroups([TEND_SERVICES, ...units.filter((unit) => !unit.startsWith("tend-"))], direct)).toEqual(pids);
    expect(await mainPidsFromCgroups(units, direct)).toEqual(pids);
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

  it("says a user's manager is not running, and how to start it, writing nothing; once it runs, the same spec plans", async () => {
    const spec = "/home/dave/p/tend.yaml";
    await host.mustSh(`useradd -m dave && mkdir /home/dave/p && printf 'tend: v1alpha1\\ntype: Service\\nname: web\\nexec: /bin/sleep 1000\\nuser: true\\n' > ${spec} && chown -R dave: /home/dave/p`);
    try {
      // no login session and no linger: no manager (docker exec opens no PAM session)
      const refused = await host.tend(["apply", "-f", spec], { user: "dave" });
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toMatch(/^error TEND_SYSTEMD_NO_USER_MANAGER: dave's systemd user manager is not running, so tend can neither see nor start dave's units \(systemctl --user: Failed to connect to bus/);
      expect(refused.stderr).toContain("hint As root, `loginctl enable-linger dave` starts it now and at every boot");
      expect(await exists("/home/dave/.config/systemd")).toBe(false);
      await host.mustSh("loginctl enable-linger dave && for i in $(seq 100); do [ -S /run/user/$(id -u dave)/bus ] && exit 0; sleep 0.1; done; exit 1");
      expect(await host.expectTend(["plan", "-f", spec], { user: "dave", exitCode: 0 })).toContain("+ service:web  /bin/sleep 1000");
    } finally {
      await host.mustSh("loginctl disable-linger dave");
    }
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

  it("a user service after a system service fails plan in either scope, before anything is written: no init orders services across scopes", async () => {
    await proveCrossScopeAfterRefused(host, SPEC, spec, BASE, "web", "/home/alice/.config/systemd/user/tend-mine.service");
    await host.writeFile(SPEC, spec(...BASE));
    await plan(0);
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

  describe("a distro service in every state × enabled (a stand-in package's unit)", () => {
    beforeAll(async () => {
      await host.writeFile("/lib/systemd/system/demo-distro.service", "[Unit]\nDescription=Stand-in distro service\n[Service]\nExecStart=/opt/demo/bin/demo demo-distro\n[Install]\nWantedBy=multi-user.target\n");
      await host.mustSh("systemctl daemon-reload");
    });

    it.each(EVERY_DESIRED_STATE)("converges to %s, enabled %s: systemd and the process table agree, and the next plan is clean", (state, enabled) =>
      convergeDistro(host, SPEC, BASE, "demo-distro", [state, enabled], async () => {
        expect(await show("demo-distro.service", "ActiveState")).toBe(state === "running" ? "active" : "inactive");
        expect(await show("demo-distro.service", "UnitFileState")).toBe(enabled ? "enabled" : "disabled");
      }),
    );
  });

  it("a seeded random walk of edits of three services converges at every step: the next plan is clean and the process table agrees", () => proveRandomWalk(host, SPEC, BASE, WALK.seed, WALK.steps, { byHand: BY_HAND }), WALK_TIMEOUT_MS);

  describe("a tend service in every state × enabled", () => {
    afterAll(() => applySpec(host, SPEC, BASE));

    it.each(EVERY_DESIRED_STATE)("converges to %s, enabled %s: systemd and the process table agree, and the next plan is clean", (state, enabled) =>
      convergeService(host, SPEC, BASE, "tour", [state, enabled], async () => {
        expect(await show("tend-tour.service", "ActiveState")).toBe(state === "running" ? "active" : "inactive");
        expect(await show("tend-tour.service", "UnitFileState")).toBe(enabled ? "enabled" : "disabled");
      }),
    );
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

  /**
   * Each way an admin writes `exec`, as the program systemd supervises and signals: counted in the
   * process table (livePids), never by asking systemd. A pipeline's programs are `NAME` and
   * `NAME-tail`; systemd ends both with the unit's cgroup, but cannot signal them through
   * `$MAINPID` (the shell), so plan refuses reloadSignal there.
   */
  describe("exec forms: the program is what systemd supervises and signals", () => {
    const EXACT = "/spec/exact.yaml";
    const FORMS = Object.keys(EXEC_FORMS) as ExecForm[];
    const RELOADING = FORMS.filter((form) => form !== "pipeline");
    const nameOf = (form: ExecForm) => `f-${form}`;
    /** The program names to count for a form: a pipeline has two. */
    const programs = (form: ExecForm) => (form === "pipeline" ? [nameOf(form), `${nameOf(form)}-tail`] : [nameOf(form)]);
    const conf = (name: string, content: string) => doc(`type: File\nname: ${name}\npath: /etc/${name}.conf\ncontent: "${content}\\n"`);
    const formDoc = (form: ExecForm, extra = "") =>
      doc(`
type: Service
name: ${nameOf(form)}
exec: ${JSON.stringify(EXEC_FORMS[form](nameOf(form)))}
restart: always
restartOn: ["file:restart-conf"]
${form === "pipeline" ? "" : 'reloadSignal: HUP\nreloadOn: ["file:reload-conf"]'}
verify: {settle: 1}
${extra}`);
    const specOf = (options: { restart?: string; reload?: string; extra?: string } = {}) => [
      conf("restart-conf", options.restart ?? "one"),
      conf("reload-conf", options.reload ?? "one"),
      ...FORMS.map((form) => formDoc(form, options.extra)),
    ];
    const applyExact = (docs: string[], exitCode = 0) => applySpec(host, EXACT, docs, exitCode);
    /** Waits until each of the form's programs runs as exactly one process, and resolves with their pids. */
    const oneEach = (form: ExecForm, what: string) =>
      host.waitFor(
        async () => {
          const live = await Promise.all(programs(form).map((name) => livePids(host, name)));
          return live.every((pids) => pids.length === 1) && live.map((pids) => pids[0]!);
        },
        { what: `${form}: exactly one live process per program ${what}`, timeoutMs: 15_000 },
      );
    const noneLeft = (form: ExecForm, what: string) =>
      host.waitFor(async () => (await Promise.all(programs(form).map((name) => livePids(host, name)))).every((pids) => pids.length === 0), {
        what: `${form}: no live process ${what}`,
        timeoutMs: 15_000,
      });
    const started = async (form: ExecForm) => (await startedPids(host, nameOf(form))).length;

    it("starts each form once, as systemd's main process (the shell that runs a pipeline for a pipeline)", async () => {
      const output = await applyExact(specOf());
      for (const form of FORMS) {
        expect(output).toContain(`service:${nameOf(form)}: verified`);
        const [pid] = await oneEach(form, "after apply");
        expect(await started(form)).toBe(1);
        const main = await mainPid(`tend-${nameOf(form)}.service`);
        if (form === "pipeline") expect(await host.mustSh(`cut -d' ' -f4 /proc/${pid}/stat`)).toBe(`${main}\n`);
        else expect(main).toBe(pid);
      }
      // the quoted argument reached the program as one word, `;` and all
      const [quoted] = await oneEach("quotedArgs", "");
      expect((await host.mustSh(`tr '\\0' '\\n' < /proc/${quoted}/cmdline`)).split("\n")).toEqual(["/bin/sh", "/opt/demo/bin/demo", "f-quotedArgs", "", "daemon off;", ""]);
      // shellThenExec: sh exec'd the program, so the pid systemd knows is the program's
      expect(await host.readFile("/etc/systemd/system/tend-f-shellThenExec.service")).toContain('ExecStart=/bin/sh -c "cd /var/tmp && exec /opt/demo/bin/demo f-shellThenExec"');
    });

    it("kill: systemd restarts the program (Restart=always), and exactly one runs", async () => {
      for (const form of FORMS) {
        const before = await oneEach(form, "before the kill");
        // sh waits for every program of a pipeline, so killing one leaves the service up: kill the
        // shell systemd watches instead, and its programs must go with the cgroup, none surviving
        const target = form === "pipeline" ? await mainPid(`tend-${nameOf(form)}.service`) : before[0];
        await host.mustSh(`kill -KILL ${target}`);
        const after = await host.waitFor(
          async () => {
            const now = await oneEach(form, "after the kill");
            return now.every((pid, i) => pid !== before[i]) && now;
          },
          { what: `${form} to be restarted after the kill`, timeoutMs: 15_000 },
        );
        for (const pid of before) expect(await livePids(host, programs(form)[before.indexOf(pid)]!)).not.toContain(pid);
        expect(after).toHaveLength(programs(form).length);
      }
    });

    it("reloadOn with reloadSignal HUP: the same process gets the signal, and nothing restarts", async () => {
      const before = new Map(await Promise.all(FORMS.map(async (form) => [form, { pids: await oneEach(form, "before the reload"), starts: await started(form) }] as const)));
      const output = await applyExact(specOf({ reload: "two" }));
      for (const form of RELOADING) {
        expect(output).toContain(`service:${nameOf(form)}: changed, reloaded (file:reload-conf changed, reloadOn matched)`);
        const [pid] = before.get(form)!.pids;
        await host.waitFor(async () => (await hupsReceived(host, nameOf(form))).includes(pid!), { what: `${form} to log hup ${pid}`, timeoutMs: 10_000 });
        expect(await oneEach(form, "after the reload")).toEqual([pid]);
        expect(await started(form)).toBe(before.get(form)!.starts);
      }
      // the pipeline lists no reloadOn: untouched
      expect(await oneEach("pipeline", "")).toEqual(before.get("pipeline")!.pids);
    });

    it("refuses reloadSignal on a pipeline at plan time, naming the field, and changes nothing", async () => {
      const pipeline = formDoc("pipeline").replace("restart: always", 'restart: always\nreloadSignal: HUP\nreloadOn: ["file:reload-conf"]');
      const docs = [...specOf({ reload: "three" }).filter((d) => !d.includes("name: f-pipeline\n")), pipeline];
      await host.writeFile(EXACT, spec(...docs));
      const output = await host.expectTend(["plan", "-f", EXACT], { exitCode: 1 });
      expect(output).toContain("error TEND_CANNOT_RELOAD: service:f-pipeline sets reloadSignal = HUP, but its exec runs under /bin/sh, which stays the main process");
      expect(output).toContain("field reloadSignal");
      expect(await host.readFile("/etc/reload-conf.conf")).toBe("two\n");
    });

    it("restartOn: a changed file restarts each form; the old process is gone and exactly one new runs", async () => {
      const before = new Map(await Promise.all(FORMS.map(async (form) => [form, await oneEach(form, "before the restart")] as const)));
      const output = await applyExact(specOf({ reload: "two", restart: "two" }));
      for (const form of FORMS) {
        expect(output).toContain(`service:${nameOf(form)}: changed, restarted (file:restart-conf changed, restartOn matched)`);
        const after = await oneEach(form, "after restartOn");
        before.get(form)!.forEach((pid, i) => expect(after[i]).not.toBe(pid));
      }
    });

    it("a changed definition restarts each form; the old process is gone and exactly one new runs", async () => {
      const before = new Map(await Promise.all(FORMS.map(async (form) => [form, await oneEach(form, "before the change")] as const)));
      await applyExact(specOf({ reload: "two", restart: "two", extra: "env: {GENERATION: '2'}" }));
      for (const form of FORMS) {
        const after = await oneEach(form, "after the change");
        before.get(form)!.forEach((pid, i) => expect(after[i]).not.toBe(pid));
        expect((await host.mustSh(`tr '\\0' '\\n' < /proc/${after[0]}/environ`)).split("\n")).toContain("GENERATION=2");
      }
    });

    it("desired stopped: no process of any form is left", async () => {
      await applyExact(specOf({ reload: "two", restart: "two", extra: "desired: {state: stopped, enabled: true}" }));
      for (const form of FORMS) {
        await noneLeft(form, "once stopped");
        expect(await show(`tend-${nameOf(form)}.service`, "ActiveState")).toBe("inactive");
      }
      await planSpec(host, EXACT, 0);
    });

    it("removal: no process of any form is left", async () => {
      await applyExact(specOf({ reload: "two", restart: "two" }));
      for (const form of FORMS) await oneEach(form, "running again");
      await applyExact([]);
      for (const form of FORMS) {
        await noneLeft(form, "after removal");
        expect(await exists(`/etc/systemd/system/tend-${nameOf(form)}.service`)).toBe(false);
      }
    });
  });

  describe("units that refuse a manual start or stop", () => {
    const EXACT = "/spec/refuse.yaml";
    const KEEP_UNIT = "[Unit]\nDescription=refuses a manual stop\nRefuseManualStop=yes\n[Service]\nExecStart=/opt/demo/bin/demo keep-demo\n[Install]\nWantedBy=multi-user.target\n";
    const trigger = (content: string) => doc(`type: File\nname: keep-conf\npath: /etc/keep.conf\ncontent: "${content}\\n"`);
    const keeper = (extra = "") =>
      doc(`type: Service\nname: keeper\nexec: /opt/demo/bin/demo keeper\nrestart: always\nrestartOn: ["file:keep-conf"]\nsystemd:\n  unit:\n    RefuseManualStop: true\n${extra}`);
    const keepDemo = (state: string) => doc(`type: Service\nname: keep-demo\nrestartOn: ["file:keep-conf"]\ndesired: {state: ${state}, enabled: true}`);

    beforeAll(async () => {
      await host.writeFile("/lib/systemd/system/keep-demo.service", KEEP_UNIT);
      await host.mustSh("systemctl daemon-reload");
    });

    it("add enables a tend unit with RefuseManualStop through the hatch, and never starts it", async () => {
      const output = await applySpec(host, EXACT, [trigger("one"), keeper()]);
      expect(output).toContain("service:keeper: added, enabled\n");
      expect(await host.mustSh("systemctl is-enabled tend-keeper.service")).toBe("enabled\n");
      expect(await show("tend-keeper.service", "ActiveState")).toBe("inactive");
      expect(await livePids(host, "keeper")).toEqual([]);
      await planSpec(host, EXACT, 0);
    });

    it("a change or a restartOn trigger never restarts it", async () => {
      await host.mustSh("systemctl start tend-keeper.service"); // whatever wants it starts it
      const [pid] = await host.waitFor(async () => (await livePids(host, "keeper")).length === 1 && livePids(host, "keeper"), { what: "keeper to run" });
      const output = await applySpec(host, EXACT, [trigger("two"), keeper("env: {GENERATION: '2'}")]);
      expect(output).toContain("service:keeper: changed (file:keep-conf changed, restartOn matched)");
      expect(await livePids(host, "keeper")).toEqual([pid]);
      expect(await startedPids(host, "keeper")).toEqual([pid]);
      await planSpec(host, EXACT, 0);
    });

    it("never stops or restarts a distro unit that has RefuseManualStop, whatever desired says", async () => {
      await host.mustSh("systemctl start keep-demo.service");
      const [pid] = await host.waitFor(async () => (await livePids(host, "keep-demo")).length === 1 && livePids(host, "keep-demo"), { what: "keep-demo to run" });
      const docs = [trigger("three"), keeper("env: {GENERATION: '2'}"), keepDemo("stopped")];
      const output = await applySpec(host, EXACT, docs);
      expect(output).toContain("service:keep-demo: added, enabled");
      expect(output).not.toContain("keep-demo: added, enabled, stopped");
      expect(await host.mustSh("systemctl is-enabled keep-demo.service")).toBe("enabled\n");
      expect(await livePids(host, "keep-demo")).toEqual([pid]);
      await planSpec(host, EXACT, 0);
      expect(await host.expectTend(["observe", "-f", EXACT, "service:keep-demo"])).toContain("refuseManualStop");
      // a restartOn trigger does not restart it either
      await applySpec(host, EXACT, [trigger("four"), keeper("env: {GENERATION: '2'}"), keepDemo("running")]);
      expect(await livePids(host, "keep-demo")).toEqual([pid]);
      expect(await startedPids(host, "keep-demo")).toEqual([pid]);
    });

    it("removal only disables them: the running processes are left to whatever stops them", async () => {
      const [keeperPid] = await livePids(host, "keeper");
      const [distroPid] = await livePids(host, "keep-demo");
      const output = await applySpec(host, EXACT, []);
      expect(output).toContain("service:keeper: disabled, not stopped: its unit refuses a manual start or stop (it stops with the host)");
      expect(await exists("/etc/systemd/system/tend-keeper.service")).toBe(false);
      expect((await host.exec(["systemctl", "is-enabled", "keep-demo.service"])).stdout).toBe("disabled\n");
      expect(await livePids(host, "keeper")).toEqual([keeperPid]);
      expect(await livePids(host, "keep-demo")).toEqual([distroPid]);
      expect(await demoLog(host, "keeper")).not.toContain("term");
      await planSpec(host, EXACT, 0);
      await host.mustSh("systemctl kill tend-keeper.service; systemctl kill keep-demo.service");
    });
  });

  describe("template instances and user units, live and in image roots", () => {
    const GETTY = doc("type: Service\nname: getty@tty3");
    const INSTANCE_SPEC = "/spec/instance.yaml";

    it("enables and disables a template instance on the live host, by its own name", async () => {
      await applySpec(host, INSTANCE_SPEC, [GETTY]);
      expect(await host.mustSh("readlink /etc/systemd/system/getty.target.wants/getty@tty3.service")).toBe("/lib/systemd/system/getty@.service\n");
      expect(await host.mustSh("systemctl is-enabled getty@tty3.service")).toBe("enabled\n");
      await planSpec(host, INSTANCE_SPEC, 0);
      await host.mustSh("systemctl disable getty@tty3.service");
      expect(await planSpec(host, INSTANCE_SPEC, 2)).toContain("not enabled at boot, want enabled");
      await applySpec(host, INSTANCE_SPEC, [GETTY]);
      await applySpec(host, INSTANCE_SPEC, []);
      expect((await host.exec(["systemctl", "is-enabled", "getty@tty3.service"])).stdout).toBe("disabled\n");
      expect(await exists("/lib/systemd/system/getty@.service")).toBe(true);
    });

    it("enables a template instance in an image root: no TEND_UNIT_MISSING, the next plan clean, removal disables it", async () => {
      await host.mustSh("mkdir -p /srv/gimage/lib/systemd/system && cp /lib/systemd/system/getty@.service /lib/systemd/system/getty.target /srv/gimage/lib/systemd/system/");
      await host.writeFile(INSTANCE_SPEC, spec(GETTY));
      expect(await host.expectTend(["plan", "-f", INSTANCE_SPEC, "--root", "/srv/gimage"])).toContain("+ service:getty@tty3  enable the distro unit");
      await host.expectTend(["apply", "-f", INSTANCE_SPEC, "--root", "/srv/gimage"]);
      expect(await host.mustSh("readlink /srv/gimage/etc/systemd/system/getty.target.wants/getty@tty3.service")).toBe("/lib/systemd/system/getty@.service\n");
      await host.expectTend(["plan", "-f", INSTANCE_SPEC, "--root", "/srv/gimage", "--detailed-exitcode"]);
      await host.writeFile(INSTANCE_SPEC, spec());
      await host.expectTend(["apply", "-f", INSTANCE_SPEC, "--root", "/srv/gimage"]);
      expect(await exists("/srv/gimage/etc/systemd/system/getty.target.wants/getty@tty3.service")).toBe(false);
      expect(await show("getty@tty3.service", "UnitFileState")).toBe("disabled");
    });

    it("restarts alice's user service when the File it names changes: her run writes the File, the system run leaves it", async () => {
      const confSpec = "/spec/user-conf.yaml";
      const docs = (content: string) => [
        doc(`type: File\nname: tick-conf\npath: /home/alice/.config/tick/tick.conf\ncontent: ${JSON.stringify(content)}`),
        doc("type: Service\nname: tick-user\nexec: sleep 100031\nuser: true\nrestartOn:\n  - File[tick-conf]"),
      ];
      const both = async (content: string) => {
        const system = await applySpec(host, confSpec, docs(content));
        return { system, user: await host.expectTend(["apply", "-f", confSpec, "--user", "alice"]) };
      };
      const first = await both("rate = 1\n");
      expect(first.system).not.toContain("tick-conf");
      expect(first.user).toContain("file:tick-conf: added");
      expect(await host.mustSh("stat -c '%U' /home/alice/.config/tick/tick.conf")).toBe("alice\n");
      const pid = await show("tend-tick-user.service", "MainPID", true);
      expect(Number(pid)).toBeGreaterThan(0);
      const second = await both("rate = 2\n");
      expect(second.system).not.toContain("tick-conf");
      expect(second.user).toContain("file:tick-conf: changed");
      const now = await show("tend-tick-user.service", "MainPID", true);
      expect([Number(now) > 0, now === pid]).toEqual([true, false]);
      expect(await host.readFile("/home/alice/.config/tick/tick.conf")).toBe("rate = 2\n");
      await host.expectTend(["plan", "-f", confSpec, "--user", "alice", "--detailed-exitcode"]);
      await host.expectTend(["plan", "-f", confSpec, "--detailed-exitcode"]);
      await host.writeFile(confSpec, spec());
      await host.expectTend(["apply", "-f", confSpec, "--user", "alice"]);
      expect(await exists("/home/alice/.config/tick/tick.conf")).toBe(false);
    });

    it("enables alice's distro units offline in an image root: plan shows the enable, the links are made, the next plan is clean", async () => {
      const image = "/srv/uimage";
      await host.mustSh(
        [
          `mkdir -p ${image}/etc ${image}/usr/lib/systemd/user ${image}/home/alice`,
          `cp /etc/passwd /etc/group ${image}/etc/`,
          `chown alice:alice ${image}/home/alice`,
          `printf '[Service]\\nExecStart=/usr/bin/pipewire\\n[Install]\\nWantedBy=default.target\\nAlias=pipewire-session.service\\n' > ${image}/usr/lib/systemd/user/pipewire.service`,
          `printf '[Service]\\nExecStart=/usr/bin/agent %%i\\n[Install]\\nWantedBy=default.target\\n' > ${image}/usr/lib/systemd/user/agent@.service`,
        ].join(" && "),
      );
      const userSpec = "/spec/user-image.yaml";
      await host.writeFile(userSpec, spec(doc("type: Service\nname: pipewire\nuser: true"), doc("type: Service\nname: agent@work\nuser: true")));
      const args = ["-f", userSpec, "--user", "alice", "--root", image];
      const planned = await host.expectTend(["plan", ...args, "--detailed-exitcode"], { exitCode: 2 });
      expect(planned).toContain("+ service:pipewire  enable the distro unit\n      reason  not enabled at boot, want enabled");
      expect(planned).toContain("+ service:agent@work  enable the distro unit");
      expect(await host.expectTend(["apply", ...args])).toContain("service:pipewire: added, enabled");
      const wants = `${image}/home/alice/.config/systemd/user/default.target.wants`;
      expect(await host.mustSh(`readlink ${wants}/pipewire.service ${wants}/agent@work.service ${image}/home/alice/.config/systemd/user/pipewire-session.service`)).toBe(
        "/usr/lib/systemd/user/pipewire.service\n/usr/lib/systemd/user/agent@.service\n/usr/lib/systemd/user/pipewire.service\n",
      );
      expect(await host.mustSh(`stat -c %U ${wants}/pipewire.service`)).toBe("alice\n");
      expect(await host.expectTend(["plan", ...args, "--detailed-exitcode"])).toContain("0 to add, 0 to change, 0 to remove");
      // what systemd itself makes of the image: alice's manager would start both at login
      expect(await host.mustSh(`ls ${wants}`)).toBe("agent@work.service\npipewire.service\n");
    });
  });

  describe("plan warnings on the real systemd", () => {
    const WARN_SPEC = "/spec/warn.yaml";
    const HATCHED = doc(`
type: Service
name: hatched
exec: /opt/demo/bin/demo hatched
env: {FROM_ENV: "1"}
systemd:
  Environment: "FROM_HATCH=1"
`);

    it("warns that a hatch directive replaces what env generated, naming both, and the unit gets only the hatch's value", async () => {
      await host.writeFile(WARN_SPEC, spec(HATCHED));
      const warning = "! service:hatched warning: `systemd.Environment` replaces the Environment= line tend generated from `env`; systemd gets only the hatch's value";
      expect(await planSpec(host, WARN_SPEC, 2)).toContain(warning);
      await applySpec(host, WARN_SPEC, [HATCHED]);
      const [pid] = await host.waitFor(async () => (await livePids(host, "hatched")).length === 1 && livePids(host, "hatched"), { what: "hatched to run" });
      const environ = (await host.mustSh(`tr '\\0' '\\n' < /proc/${pid}/environ`)).split("\n");
      expect(environ).toContain("FROM_HATCH=1");
      expect(environ).not.toContain("FROM_ENV=1");
      // a warning is not a change: the converged plan still shows it, and exits 0
      expect(await planSpec(host, WARN_SPEC, 0)).toContain(warning);
    });

    it("shows a foreign drop-in on a unit tend wrote, and never treats it as drift", async () => {
      await host.writeFile("/etc/systemd/system/tend-hatched.service.d/local.conf", "[Service]\nNice=5\nCPUWeight=50\n");
      await host.mustSh("systemctl daemon-reload");
      const planned = await planSpec(host, WARN_SPEC, 0);
      expect(planned).toContain("! service:hatched warning: /etc/systemd/system/tend-hatched.service.d/local.conf changes it (Nice, CPUWeight); tend leaves drop-ins alone");
      expect(planned).toContain("0 to add, 0 to change, 0 to remove");
      await applySpec(host, WARN_SPEC, []);
      expect(await host.readFile("/etc/systemd/system/tend-hatched.service.d/local.conf")).toBe("[Service]\nNice=5\nCPUWeight=50\n");
      await host.mustSh("rm -r /etc/systemd/system/tend-hatched.service.d && systemctl daemon-reload");
    });

    it("refuses an empty unit file, which systemd reads as a mask, even with --adopt", async () => {
      const unit = "/etc/systemd/system/tend-emptied.service";
      await host.mustSh(`: > ${unit} && systemctl daemon-reload`);
      expect((await host.exec(["systemctl", "is-enabled", "tend-emptied.service"])).stdout.trim()).toBe("masked");
      const emptied = doc("type: Service\nname: emptied\nexec: /opt/demo/bin/demo emptied");
      await host.writeFile(WARN_SPEC, spec(emptied));
      const refusal = `! service:emptied refused: ${unit} is an empty file, which the init reads as a mask; apply never writes through or over it`;
      expect(await planSpec(host, WARN_SPEC, 2, "--adopt")).toContain(refusal);
      const applied = await host.tend(["apply", "-f", WARN_SPEC, "--adopt"]);
      expect(applied.exitCode).toBe(1);
      expect(applied.stderr).toContain("an empty file, which the init reads as a mask");
      expect(await host.readFile(unit)).toBe("");
      expect((await host.exec(["systemctl", "is-enabled", "tend-emptied.service"])).stdout.trim()).toBe("masked");
      await host.mustSh(`rm ${unit} && systemctl daemon-reload`);
      await applySpec(host, WARN_SPEC, []);
    });

    it("shows set-property's drop-in and a unit systemd loads instead of tend's, and leaves both", async () => {
      const control = "/etc/systemd/system.control";
      await applySpec(host, WARN_SPEC, [HATCHED]);
      await host.mustSh("systemctl set-property tend-hatched.service CPUWeight=50");
      await host.writeFile(`${control}/tend-hatched.service`, "[Service]\nExecStart=/opt/demo/bin/demo shadow\n");
      await host.mustSh("systemctl daemon-reload");
      // systemd itself loads the control folder's unit instead of tend's
      expect((await host.mustSh("systemctl show -p FragmentPath tend-hatched.service")).trim()).toBe(`FragmentPath=${control}/tend-hatched.service`);
      const planned = await planSpec(host, WARN_SPEC, 0);
      expect(planned).toContain(`! service:hatched warning: ${control}/tend-hatched.service replaces it: systemd loads that file, not the one tend wrote; tend leaves it alone`);
      expect(planned).toContain(`! service:hatched warning: ${control}/tend-hatched.service.d/50-CPUWeight.conf changes it (CPUWeight); tend leaves drop-ins alone`);
      await applySpec(host, WARN_SPEC, [HATCHED]);
      expect(await host.readFile(`${control}/tend-hatched.service`)).toBe("[Service]\nExecStart=/opt/demo/bin/demo shadow\n");
      expect(await host.readFile(`${control}/tend-hatched.service.d/50-CPUWeight.conf`)).toContain("CPUWeight=50");
      await host.mustSh(`rm -r ${control}/tend-hatched.service ${control}/tend-hatched.service.d && systemctl daemon-reload`);
      const after = await planSpec(host, WARN_SPEC, 0);
      expect(after).not.toContain("replaces it");
      expect(after).not.toContain("CPUWeight");
      await applySpec(host, WARN_SPEC, []);
    });
  });

  describe("read-only commands change nothing (G2)", () => {
    const PURE_SPEC = "/spec/pure.yaml";
    const CHANGED_SPEC = "/spec/pure-changed.yaml";
    const PURE = [
      doc('type: File\nname: pure-conf\npath: /etc/pure/pure.conf\ncontent: "a = 1\\n"'),
      doc('type: Service\nname: pure\nexec: /opt/demo/bin/demo pure\nrestartOn: ["File[pure-conf]"]\nenv: {API_TOKEN: abcd1234}'),
      doc('type: Timer\nname: pure-tick\nexec: /bin/true\nschedule: "*/5 * * * *"'),
      doc('type: Service\nname: ssh\nreloadOn: ["File[pure-conf]"]'),
    ];
    /** What a plan may ask systemd: queries, never a change. */
    const READ_ONLY = /^systemctl (--user -M \S+ )?(list-units|list-unit-files|show|get-default|is-system-running|is-enabled|cat)( |$)/;

    it("plan, plan --diff and observe run only systemd's queries and change no file, converged or not; the same spy sees all that apply does", async () => {
      const changedText = spec(...PURE.map((d) => d.replace("a = 1", "a = 2").replace("abcd1234", "efgh5678")));
      const applied = await provePurePlans(host, { spec: PURE_SPEC, docs: PURE, changed: CHANGED_SPEC, changedText, queries: READ_ONLY });
      // Its env holds a token: the unit systemd ran is root's to read alone.
      expect(await host.mustExec(["stat", "-c", "%a", "/etc/systemd/system/tend-pure.service"])).toBe("600\n");
      expect(applied.changes.filter((call) => call.includes('"/etc/pure/')).length).toBeGreaterThan(0);
      expect(applied.changes.filter((call) => call.includes('"/etc/systemd/system/')).length).toBeGreaterThan(0);
      expect(applied.commands.map((argv) => argv.join(" ")).filter((line) => !READ_ONLY.test(line))).toEqual(expect.arrayContaining([expect.stringMatching(/^systemctl daemon-reload/), expect.stringMatching(/^systemctl (restart|try-restart) .*tend-pure\.service/), expect.stringMatching(/^systemctl reload .*ssh\.service/)]));
      await applySpec(host, PURE_SPEC, []);
    });
  });

  describe("batching", () => {
    const BATCH_SPEC = "/spec/batch.yaml";
    const LOG = "/var/tmp/systemctl-runs";
    /** Logs every systemctl that tend (node) runs, then runs the real one. */
    const SHIM = `#!/bin/sh\n[ "$(cat /proc/$PPID/comm)" = node ] && echo "$*" >> ${LOG}\nexec /usr/bin/systemctl "$@"\n`;
    const many = (n: number) => Array.from({ length: n }, (_, i) => doc(`type: Service\nname: b${i}\nexec: /opt/demo/bin/demo b${i}\nrestart: always`));
    /**
     * The systemctl runs of one tend apply, unit names left out. An observation runs its two
     * queries side by side, so each run of adjacent `list-*` queries is put in a fixed order.
     */
    const runsOf = async (docs: string[]) => {
      await host.mustSh(`: > ${LOG}`);
      await applySpec(host, BATCH_SPEC, docs);
      const runs = (await host.readFile(LOG)).split("\n").filter(Boolean).map((line) => line.replace(/ -- .*/, " -- …"));
      const ordered: string[] = [];
      let queries: string[] = [];
      for (const run of [...runs, ""]) {
        if (run.startsWith("list-")) {
          queries.push(run);
          continue;
        }
        ordered.push(...queries.sort());
        queries = [];
        if (run) ordered.push(run);
      }
      return ordered;
    };

    beforeAll(async () => {
      await host.writeFile("/usr/local/bin/systemctl", SHIM, { mode: 0o755 });
    });

    afterAll(async () => {
      await host.exec(["rm", "-f", "/usr/local/bin/systemctl"]);
    });

    it("applies 12 and 60 new services with the same systemctl runs: one daemon-reload, one enable --now, one list-units per observation, a probe of one list-units, main pids from the control groups", async () => {
      const removal = ["disable --now -- …", "daemon-reload", "reset-failed -- …"];
      // A few units: each probe reading is one show (cheaper than a list and a shell for so few).
      // The units' file states are read from the tree (readUnitFileStates): list-units alone asks the manager.
      expect(await runsOf(many(3))).toEqual([
        "list-units --all --output=json -- …",
        "daemon-reload",
        "enable --now -- …",
        "show -p Id,LoadState,ActiveState,SubState,InvocationID,NRestarts,MainPID,Result -- …",
        "show -p Id,LoadState,ActiveState,SubState,InvocationID,NRestarts,MainPID,Result -- …",
        "list-units --all --output=json -- …", // the state the spec asked for: no main pids, only a plan uses them
      ]);
      expect(await runsOf([])).toEqual(removal);
      const twelve = await runsOf(many(12));
      expect(await runsOf([])).toEqual(removal);
      const sixty = await runsOf(many(60));
      expect(twelve).toEqual([
        "list-units --all --output=json -- …",
        "daemon-reload",
        "enable --now -- …",
        // the probe's two readings, each one list-units (the main pids from the control groups, no
        // show), then the state the spec asked for
        "list-units --all --output=json -- …",
        "list-units --all --output=json -- …",
        "list-units --all --output=json -- …",
      ]);
      expect(sixty).toEqual(twelve);
      for (let i = 0; i < 60; i += 1) expect((await livePids(host, `b${i}`)).length).toBe(1);
      // A plan's main pids come from the services' control groups (one shell, no systemctl show).
      expect(await runsOf(many(60))).toEqual(["list-units --all --output=json -- …"]);
      expect(await runsOf([])).toEqual(removal);
      for (let i = 0; i < 60; i += 1) expect(await livePids(host, `b${i}`)).toEqual([]);
    }, 240_000);

    it("reads tend's unit file states from the tree as list-unit-files gives them, and asks it when a runtime link or mask could change them", async () => {
      /** tend's observation of each unit's file state (its systemctl runs logged), and systemd's own answer. */
      const states = async () => {
        await host.mustSh(`: > ${LOG}`);
        const observed = JSON.parse(await host.expectTend(["observe", "-f", BATCH_SPEC, "--json"])).result.resources as { key: string; unitFileState?: string }[];
        const runs = (await host.readFile(LOG)).split("\n").filter(Boolean).map((line) => line.replace(/ -- .*/, " -- …"));
        const truth = JSON.parse(await host.mustSh("/usr/bin/systemctl list-unit-files --output=json -- 'tend-b*'")) as { unit_file: string; state: string }[];
        const tend = Object.fromEntries(observed.map((o) => [`tend-${o.key.slice("service:".length)}.service`, o.unitFileState]));
        return { tend, systemd: Object.fromEntries(truth.map((u) => [u.unit_file, u.state])), runs };
      };
      await applySpec(host, BATCH_SPEC, many(4));
      await host.mustSh("systemctl disable tend-b1.service");
      await host.mustSh("mkdir -p /etc/systemd/system/graphical.target.wants && ln -s /etc/systemd/system/tend-b2.service /etc/systemd/system/graphical.target.wants/tend-b2.service");
      // a static unit: its [Install] section gone by hand (after its links)
      await host.mustSh("systemctl disable tend-b3.service && cp /etc/systemd/system/tend-b3.service /var/tmp/b3 && sed -i '/^\\[Install\\]/,$d' /etc/systemd/system/tend-b3.service");
      const plain = await states();
      expect(plain.tend).toEqual({ "tend-b0.service": "enabled", "tend-b1.service": "disabled", "tend-b2.service": "enabled", "tend-b3.service": "static" });
      expect(plain.tend).toEqual(plain.systemd);
      // read from the tree: the manager was asked only what runs
      expect(plain.runs).toEqual(["list-units --all --output=json -- …"]);
      await host.mustSh("systemctl enable --runtime tend-b1.service && systemctl mask --runtime tend-b0.service");
      const runtime = await states();
      expect(runtime.tend).toMatchObject({ "tend-b1.service": "enabled-runtime" });
      expect(runtime.tend).toEqual(runtime.systemd);
      expect([...runtime.runs].sort()).toEqual(["list-unit-files --output=json -- …", "list-units --all --output=json -- …"]);
      await host.mustSh("systemctl unmask --runtime tend-b0.service && systemctl disable --runtime tend-b1.service && rm /etc/systemd/system/graphical.target.wants/tend-b2.service && mv /var/tmp/b3 /etc/systemd/system/tend-b3.service");
      await applySpec(host, BATCH_SPEC, []);
    }, 120_000);
  });

  it("verifies a service it started and one it restarted while the wall clock steps a year forward, then back (reliability #22)", () => proveVerifyAcrossClockStep(host, "/spec/clockstep.yaml", []), 120_000);
  it("restarts a service whose init runs an older definition than the file on disk, without rewriting it", () => proveOlderDefinitionRestart(host, "/spec/olddef.yaml", [], "/etc/systemd/system/tend-olddef.service", async () => expect(await host.mustSh("systemctl show -p NeedDaemonReload --value tend-olddef.service")).toBe("no\n")), 120_000);

  it("sets back in place a mode loosened by hand: the service's own file without a restart, a File it restarts on with one", () => proveModeDrift(host, "/spec/modes.yaml", [], "/etc/systemd/system/tend-modes.service"), 120_000);

  it("restarts a service whose program was replaced on disk, unless restartOnUpgrade is false", () => proveStaleBuildRestart(host, "/spec/stale.yaml", []), 120_000);

  it("keeps a restart that a later failure stopped in the ledger, and the next apply carries it out", () => proveRestartLedger(host, "/spec/ledger.yaml", []), 120_000);
  it("does not carry out a start the ledger kept once the spec wants the service stopped", () => proveLedgerYieldsToSpec(host, "/spec/ledger.yaml", []), 120_000);

  it("an apply killed after writing a changed unit, before systemd's daemon-reload: the next apply reloads it, and the restarted program is the new one", () =>
    proveKilledBeforeLoad(host, "/spec/preload.yaml", [], { program: "systemctl", real: "/usr/bin/systemctl", word: "daemon-reload" }, "/etc/systemd/system/tend-preload.service"), 120_000);

  it("a definition deleted by hand while the service runs: apply writes it back and restarts the service", () => proveDeletedDefinition(host, "/spec/deldef.yaml", [], "/etc/systemd/system/tend-deldef.service"), 120_000);
  it("a seeded random walk of edits of three of alice's user services converges at every step, in her scope and the system's", () => proveRandomWalk(host, "/spec/uwalk.yaml", [], WALK.seed, WALK.steps, { byHand: BY_HAND_ALICE, user: "alice" }), 2 * WALK_TIMEOUT_MS);

  it("tells before a reboot which services would not come back, and the reboot proves it", () =>
    proveBootTruth(host, {
      specPath: "/spec/boot.yaml",
      base: [],
      offWhy: "it is not enabled",
      // as alice herself: a `-M alice@` session would end her lingerless manager ten seconds later
      userTend: (args) => host.expectTend([...args, "--user"], { user: "alice" }),
      cases: [
        {
          name: "boot-user",
          doc: bootUserService("boot-user"),
          user: true,
          breakBoot: () => host.mustSh("rm /var/lib/systemd/linger/alice"),
          why: "alice has no linger, so alice's manager starts only when alice logs in (loginctl enable-linger alice)",
          restore: async () => {
            await host.mustSh("touch /var/lib/systemd/linger/alice && systemctl start user@1000.service");
            expect(await host.mustSh("systemctl is-active user@1000.service")).toBe("active\n");
          },
        },
      ],
      // the image's own readiness waits for alice's manager, which nothing starts now
      reboot: { ready: 'state=$(systemctl is-system-running --wait 2>/dev/null); case "$state" in running|degraded) ;; *) exit 1 ;; esac' },
    }), 240_000);

  it("leaves nothing in the state folders but the lock and the state (no temp files, no journal)", async () => {
    const entries = (await host.mustSh("ls -A /var/lib/tend")).split("\n").filter(Boolean);
    // backups/ holds the hand-edited unit the drift test overwrote, kept on purpose
    expect(entries).toEqual(["backups", "lock", "state.json"]);
    // and the copies of the definitions the random walks' admin edited
    expect((await withoutWalkCopies(host, "/var/lib/tend/backups")).map((path) => path.replace(/^\.\/[^/]+\//, ""))).toEqual(["file/etc/systemd/system/tend-web.service"]);
    // alice's scope has its own lock, beside her state (and her walk's copies)
    expect((await host.mustSh("ls -A /home/alice/.local/state/tend")).split("\n").filter((entry) => entry !== "" && entry !== "backups")).toEqual(["lock", "state.json"]);
    expect(await withoutWalkCopies(host, "/home/alice/.local/state/tend/backups")).toEqual([]);
  });
});

/**
 * The container's files as the host's own (HostFiles.local) for reading: each turn's reads in
 * one `docker exec` (a process per file would take minutes for /proc).
 */
function containerFiles(host: TestHost) {
  let pending: { path: string; resolve: (content: string | null) => void }[] = [];
  const flush = async () => {
    const batch = pending;
    pending = [];
    const script = 'for f; do if c=$(base64 -w0 < "$f" 2>/dev/null); then echo "+$c"; else echo -; fi; done';
    const lines = (await host.exec(["sh", "-c", script, "sh", ...batch.map((read) => read.path)])).stdout.split("\n");
    batch.forEach((read, i) => read.resolve(lines[i]?.startsWith("+") ? Buffer.from(lines[i]!.slice(1), "base64").toString("utf8") : null));
  };
  return {
    local: true,
    readFile: (path: string) =>
      new Promise<string | null>((resolve) => {
        if (pending.length === 0) setImmediate(() => void flush());
        pending.push({ path, resolve });
      }),
    isDirectory: async (path: string) => (await host.exec(["test", "-d", path])).exitCode === 0,
    readDir: async (path: string) => {
      const listed = await host.exec(["ls", "-A", path]);
      return listed.exitCode === 0 ? listed.stdout.split("\n").filter(Boolean).sort() : null;
    },
  };
}
