import { readFileSync } from "node:fs";
import type { LocalHostFiles } from "@tend/core/runtime";
import { service, ServiceSchema, timer, TimerSchema, type Command, type Resource } from "@tend/core";
import { readContext, RecordingRunner, writeHostTree, type HostTree } from "@tend/testkit";
import { describe, expect, it, vi } from "vitest";
import { asLocalFiles } from "./__testing__/as-local-files.js";
import { observeUnits } from "./observe-units.js";
import { processUid } from "./process-uid.js";
import { refusedOperations } from "./refused-operations.js";

vi.mock("./process-uid.js", () => ({ processUid: vi.fn(() => 0) }));

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
const svc = (name: string, fields: Parameters<typeof service>[1] = {}) => ServiceSchema.parse(service(name, fields));

/** A runner answering as the captured host did. */
function capturedHost(options: { defaultTarget?: string } = {}): RecordingRunner {
  return new RecordingRunner()
    .on(/^systemctl( --user -M alice@)? list-unit-files /, { stdout: fixture("list-unit-files-system.json") })
    .on(/^systemctl( --user -M alice@)? list-units /, { stdout: fixture("list-units-system.json") })
    .on("systemctl show -p Id,LoadState,ActiveState,UnitFileState,CanReload,RefuseManualStart,RefuseManualStop", { stdout: fixture("show-distro.txt") })
    .on("systemctl get-default", { stdout: options.defaultTarget ? `${options.defaultTarget}\n` : fixture("get-default.txt") });
}

describe("observeUnits on a live system manager", () => {
  const resources: Resource[] = [
    svc("web", { exec: "/bin/sleep infinity", reloadSignal: "HUP" }),
    svc("crash", { exec: "/bin/false", restart: "always" }),
    svc("failed", { exec: "/bin/false" }),
    svc("once", { exec: "/bin/true", systemd: { Type: "oneshot", RemainAfterExit: true } }),
    svc("stopped", { exec: "/bin/sleep infinity" }),
    svc("disabled", { exec: "/bin/sleep infinity" }),
    svc("masked", { exec: "/bin/sleep infinity" }),
    svc("new", { exec: "/bin/sleep infinity" }),
    TimerSchema.parse(timer("backup", { exec: "/bin/true", schedule: "30 2 * * *" })),
    svc("ssh", { reloadOn: ["file:sshd-config"] }),
    svc("sshd"),
    svc("gdm", { displayManager: true, reloadOn: ["file:gdm-config"] }),
    svc("indirect-demo"),
    svc("legacy-demo"),
    svc("nope", { reloadOn: ["file:x"] }),
  ];

  it("answers from two lists, one show for distro units with reloadOn or an alias, get-default for a display manager, and one show for running services' main pids", async () => {
    // Control groups, read while the units are listed: web's main process alone; once's group
    // has a process too, but once is a oneshot that has exited (a left-over is not its main pid).
    const runner = capturedHost().on(/^\/bin\/sh -c .*cgroup\.procs/s, { stdout: "tend-web.service 4242 1\ntend-once.service 4343 1\n" });
    const ctx = await readContext({ init: "systemd", runner });
    const observed = await observeUnits(resources, ctx);
    expect(runner.lines).toEqual([
      // every service that may be restarted for a replaced build, whether or not it runs
      expect.stringMatching(/^\/bin\/sh -c [\s\S]*cgroup\.procs[\s\S]* sh tend-\*\.service ssh\.service sshd\.service gdm\.service indirect-demo\.service legacy-demo\.service nope\.service$/),
      "systemctl list-unit-files --output=json -- tend-* ssh.service sshd.service gdm.service indirect-demo.service legacy-demo.service nope.service",
      "systemctl list-units --all --output=json -- tend-* ssh.service sshd.service gdm.service indirect-demo.service legacy-demo.service nope.service",
      "systemctl show -p Id,LoadState,ActiveState,UnitFileState,CanReload,RefuseManualStart,RefuseManualStop -- ssh.service sshd.service gdm.service nope.service",
      "systemctl get-default",
      // the running services the groups did not answer for
      "systemctl show -p Id,MainPID -- tend-once.service ssh.service sshd.service",
    ]);
    expect(observed.get("service:web")?.mainPid).toBe(4242);
    expect(observed.get("service:once")?.mainPid).toBeUndefined();
    const summary = Object.fromEntries(
      [...observed].map(([key, o]) => [key, [o.exists, o.state, o.enabled, o.unitFileState, o.canReload, o.drift?.join("; ")]]),
    );
    expect(summary).toEqual({
      "service:web": [true, "running", true, "enabled", true, undefined],
      "service:crash": [true, "stopped", true, "enabled", false, undefined],
      "service:failed": [true, "stopped", false, "disabled", false, undefined],
      "service:once": [true, "running", true, "enabled", false, undefined],
      "service:stopped": [true, "stopped", true, "enabled", false, undefined],
      "service:disabled": [true, "stopped", false, "disabled", false, undefined],
      "service:masked": [true, "stopped", undefined, "masked", false, undefined],
      "service:new": [false, "stopped", false, undefined, false, undefined],
      "timer:backup": [true, "running", true, "enabled", undefined, undefined],
      "service:ssh": [true, "running", true, "enabled", true, undefined],
      "service:sshd": [true, "running", true, "enabled", true, undefined],
      "service:gdm": [true, "stopped", false, "disabled", false, undefined],
      "service:indirect-demo": [true, "stopped", undefined, "indirect", undefined, undefined],
      "service:legacy-demo": [true, "stopped", undefined, "generated", undefined, undefined],
      "service:nope": [false, "stopped", false, undefined, false, undefined],
    });
    expect(observed.get("service:crash")?.details).toEqual({ load: "loaded", active: "activating", sub: "auto-restart", preset: "enabled" });
    // Debian's sshd.service is an alias of ssh.service: the answers are the real unit's
    expect(observed.get("service:sshd")?.details).toEqual({ unit: "ssh.service", load: "loaded" });
  });

  it("reports another default target as drift of a display manager", async () => {
    const ctx = await readContext({ init: "systemd", runner: capturedHost({ defaultTarget: "multi-user.target" }) });
    const observed = await observeUnits([svc("gdm", { displayManager: true })], ctx);
    expect(observed.get("service:gdm")?.drift).toEqual(["the host boots to multi-user.target, not graphical.target"]);
  });

  it("costs three processes, started at once, for 200 services that need nothing else, with a short argv", async () => {
    // Each command takes a while to answer, as a real one does: how many run at the same time?
    const runner = capturedHost();
    let running = 0;
    let most = 0;
    const slow = {
      async run(command: Command) {
        most = Math.max(most, (running += 1));
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return runner.run(command);
      },
    };
    const many = Array.from({ length: 200 }, (_, i) => svc(`svc${i}`, { exec: "/bin/sleep infinity" }));
    const observed = await observeUnits(many, await readContext({ init: "systemd", runner: slow }));
    expect(observed.size).toBe(200);
    expect(runner.lines).toEqual([
      expect.stringMatching(/^\/bin\/sh -c [\s\S]*cgroup\.procs[\s\S]* sh tend-\*\.service$/),
      "systemctl list-unit-files --output=json -- tend-*",
      "systemctl list-units --all --output=json -- tend-*",
    ]);
    // none waited for another
    expect(most).toBe(3);
  });

  it("checks an apply's result naming the units it acted on to list-unit-files, which works out the state of every unit a pattern matches", async () => {
    const runner = capturedHost();
    const ctx = { ...(await readContext({ init: "systemd", runner })), purpose: "check" as const };
    const observed = await observeUnits([svc("web", { exec: "/bin/sleep infinity" }), svc("ssh")], ctx);
    expect(runner.lines).toEqual([
      "systemctl list-unit-files --output=json -- tend-web.service ssh.service",
      "systemctl list-units --all --output=json -- tend-* ssh.service",
    ]);
    // the same answers as a plan's observation (by pattern) gives
    const plan = await observeUnits([svc("web", { exec: "/bin/sleep infinity" }), svc("ssh")], await readContext({ init: "systemd", runner: capturedHost() }));
    for (const key of ["service:web", "service:ssh"]) {
      expect([observed.get(key)?.exists, observed.get(key)?.state, observed.get(key)?.enabled]).toEqual([plan.get(key)?.exists, plan.get(key)?.state, plan.get(key)?.enabled]);
    }
  });

  it("accepts list-unit-files exiting 1 with an empty list, and fails on anything else", async () => {
    const empty = new RecordingRunner().on("systemctl list-unit-files", { exitCode: 1, stdout: "[]\n" }).on("systemctl list-units", { stdout: "[]\n" });
    const observed = await observeUnits([svc("web", { exec: "/bin/web" })], await readContext({ init: "systemd", runner: empty }));
    expect(observed.get("service:web")).toMatchObject({ exists: false, state: "stopped", enabled: false });
    const broken = new RecordingRunner().on("systemctl list-unit-files", { exitCode: 1, stderr: "Failed to connect to bus: No such file or directory" });
    await expect(observeUnits([svc("web", { exec: "/bin/web" })], await readContext({ init: "systemd", runner: broken }))).rejects.toThrow(
      "Failed to connect to bus",
    );
  });

  it("shows template instances, which have no unit file of their own", async () => {
    const runner = new RecordingRunner()
      .on("systemctl list-unit-files", { stdout: "[]" })
      .on("systemctl list-units", { stdout: '[{"unit":"getty@tty1.service","load":"loaded","active":"active","sub":"running","description":"Getty on tty1"}]' })
      .on("systemctl show", { stdout: "Id=getty@tty1.service\nLoadState=loaded\nUnitFileState=enabled\nCanReload=no\n" });
    const observed = await observeUnits([svc("getty@tty1")], await readContext({ init: "systemd", runner }));
    expect(runner.lines[3]).toBe("systemctl show -p Id,LoadState,ActiveState,UnitFileState,CanReload,RefuseManualStart,RefuseManualStop -- getty@tty1.service");
    expect(observed.get("service:getty@tty1")).toMatchObject({ exists: true, state: "running", enabled: true, unitFileState: "enabled" });
  });
});

describe("observeUnits on the host tend runs on (HostFiles.local)", () => {
  const WANTED = "[Service]\nExecStart=/bin/sleep infinity\n[Install]\nWantedBy=multi-user.target\n";
  const resources = [svc("web", { exec: "/bin/sleep infinity" }), svc("disabled", { exec: "/bin/sleep infinity" }), svc("new", { exec: "/bin/sleep infinity" })];

  /** A host whose own files are a temp root holding these files and links. */
  async function localHost(tree: HostTree) {
    const runner = capturedHost();
    const ctx = await readContext({ init: "systemd", runner });
    await writeHostTree(ctx.rootDir, tree);
    return { runner, ctx: { ...ctx, files: asLocalFiles(ctx.files as LocalHostFiles) } };
  }

  const plain = {
    "etc/systemd/system/tend-web.service": WANTED,
    "etc/systemd/system/multi-user.target.wants/tend-web.service": { link: "/etc/systemd/system/tend-web.service" },
    "etc/systemd/system/tend-disabled.service": WANTED,
    "run/systemd/transient/session-1.scope": "[Scope]\n",
  };

  it("reads tend's unit file states from the tree while list-units runs: no list-unit-files", async () => {
    const { runner, ctx } = await localHost(plain);
    const observed = await observeUnits(resources, ctx);
    // (this root has no control groups: the running service's main pid comes from show)
    expect(runner.lines).toEqual(["systemctl list-units --all --output=json -- tend-*", "systemctl show -p Id,MainPID -- tend-web.service"]);
    const summary = Object.fromEntries([...observed].map(([key, o]) => [key, [o.exists, o.state, o.enabled, o.unitFileState, o.details?.preset]]));
    expect(summary).toEqual({
      "service:web": [true, "running", true, "enabled", "enabled"],
      "service:disabled": [true, "stopped", false, "disabled", "enabled"],
      "service:new": [false, "stopped", false, undefined, undefined],
    });
  });

  it("leaves a tend unit the tree does not decide (masked) to list-unit-files by name", async () => {
    const { runner, ctx } = await localHost({ ...plain, "etc/systemd/system/tend-masked.service": { link: "/dev/null" } });
    await observeUnits(resources, ctx);
    expect(runner.lines.slice(0, 2)).toEqual(["systemctl list-units --all --output=json -- tend-*", "systemctl list-unit-files --output=json -- tend-masked.service"]);
  });

  it("asks list-unit-files for every tend unit when a runtime link (enable --runtime) could change the answer", async () => {
    const { runner, ctx } = await localHost({ ...plain, "run/systemd/system/multi-user.target.wants/tend-disabled.service": { link: "/etc/systemd/system/tend-disabled.service" } });
    const observed = await observeUnits(resources, ctx);
    expect(runner.lines.slice(0, 2)).toEqual(["systemctl list-units --all --output=json -- tend-*", "systemctl list-unit-files --output=json -- tend-*"]);
    expect(observed.get("service:disabled")?.unitFileState).toBe("disabled"); // the captured host's answer, not the tree's
  });

  it("keeps asking the user manager in a user scope: the tree read is the system's", async () => {
    const { runner, ctx } = await localHost(plain);
    await observeUnits(resources, { ...ctx, scope: { kind: "user", user: "alice", uid: 1000, gid: 1000, home: "/home/alice" } });
    expect(runner.lines.some((line) => line.includes("list-unit-files"))).toBe(true);
  });
});

describe("observeUnits and units that refuse a manual start or stop", () => {
  it("asks systemd about a distro unit apply may start, stop or restart, and reports the refusal", async () => {
    const runner = new RecordingRunner()
      .on("systemctl list-unit-files", { stdout: '[{"unit_file":"refuse-demo.service","state":"enabled","preset":"enabled"},{"unit_file":"cron.service","state":"enabled","preset":"enabled"}]' })
      .on("systemctl list-units", { stdout: '[{"unit":"refuse-demo.service","load":"loaded","active":"active","sub":"running","description":"x"}]' })
      .on("systemctl show", { stdout: fixture("show-refuse.txt") });
    const refusing = svc("refuse-demo", { desired: { state: "stopped", enabled: true } });
    const observed = await observeUnits([refusing, svc("cron")], await readContext({ init: "systemd", runner }));
    // cron has no desired state, restartOn or reloadOn: apply only enables it, so nothing more is asked
    expect(runner.lines[3]).toBe("systemctl show -p Id,LoadState,ActiveState,UnitFileState,CanReload,RefuseManualStart,RefuseManualStop -- refuse-demo.service");
    expect(observed.get("service:refuse-demo")?.details).toMatchObject({ refuseManualStop: true });
    expect(observed.get("service:refuse-demo")?.details?.refuseManualStart).toBeUndefined();
    expect(refusedOperations(refusing, observed.get("service:refuse-demo"))).toEqual(["start", "stop", "restart"]);
    expect(refusedOperations(svc("cron"), observed.get("service:cron"))).toEqual([]);
  });
});

describe("observeUnits in a user scope", () => {
  it("reaches alice's manager with -M alice@ when run as root", async () => {
    const runner = new RecordingRunner()
      .on("systemctl --user -M alice@ list-unit-files", { stdout: fixture("list-unit-files-user.json") })
      .on("systemctl --user -M alice@ list-units", { stdout: fixture("list-units-user.json") });
    const sync = svc("syncthing", { exec: "syncthing serve --no-browser", user: true });
    const observed = await observeUnits([sync], await readContext({ init: "systemd", scope: "user", runner }));
    expect(runner.lines).toEqual([
      "systemctl --user -M alice@ list-unit-files --output=json -- tend-*",
      "systemctl --user -M alice@ list-units --all --output=json -- tend-*",
      "systemctl --user -M alice@ show -p Id,MainPID -- tend-syncthing.service",
    ]);
    expect(observed.get("service:syncthing")).toMatchObject({ exists: true, state: "running", enabled: true });
  });

  it("uses plain --user with the user's runtime dir when run as the user", async () => {
    vi.mocked(processUid).mockReturnValue(1000);
    try {
      const runner = new RecordingRunner()
        .on("systemctl --user list-unit-files", { stdout: fixture("list-unit-files-user.json") })
        .on("systemctl --user list-units", { stdout: fixture("list-units-user.json") });
      await observeUnits([svc("syncthing", { exec: "syncthing serve", user: true })], await readContext({ init: "systemd", scope: "user", runner }));
      expect(runner.calls.map((c) => [c.argv.slice(0, 3).join(" "), c.env])).toEqual([
        ["systemctl --user list-unit-files", { XDG_RUNTIME_DIR: "/run/user/1000" }],
        ["systemctl --user list-units", { XDG_RUNTIME_DIR: "/run/user/1000" }],
        ["systemctl --user show", { XDG_RUNTIME_DIR: "/run/user/1000" }],
      ]);
    } finally {
      vi.mocked(processUid).mockReturnValue(0);
    }
  });
});

describe("observeUnits and foreign drop-ins", () => {
  it.each([
    [
      "reports drop-ins that change a unit tend wrote (its own, a prefix's, the type's), as warnings that never become drift",
      {
        tree: {
          "etc/systemd/system/tend-web.service.d/override.conf": "[Service]\nExecStart=\nExecStart=/bin/evil\nUser=root\n",
          "etc/systemd/system/tend-.service.d/limits.conf": "[Service]\nMemoryMax=1G\n",
          "run/systemd/system/service.d/all.conf": "[Unit]\nDescription=x\n",
          "etc/systemd/system/tend-web.service.d/readme.txt": "not a drop-in\n",
          "etc/systemd/system/sshd.service.d/mine.conf": "[Service]\nNice=5\n",
        },
        warnings: [
          "/etc/systemd/system/tend-web.service.d/override.conf changes it (ExecStart, User); tend leaves drop-ins alone",
          "/etc/systemd/system/tend-.service.d/limits.conf changes it (MemoryMax); tend leaves drop-ins alone",
          "/run/systemd/system/service.d/all.conf changes it (Description); tend leaves drop-ins alone",
        ],
      },
    ],
    [
      "reports a unit of tend's name that systemd loads instead (control, transient, early generated), and set-property's drop-ins",
      {
        tree: {
          "etc/systemd/system.control/tend-web.service": "[Service]\nExecStart=/bin/evil\n",
          "run/systemd/transient/tend-web.service": "[Service]\nExecStart=/bin/other\n",
          "run/systemd/system.control/tend-web.service.d/50-CPUQuota.conf": "[Service]\nCPUQuota=20%\n",
          // below tend's folder in priority: never loaded instead of tend's unit
          "run/systemd/system/tend-web.service": "[Service]\nExecStart=/bin/lower\n",
          "usr/lib/systemd/system/tend-web.service": "[Service]\nExecStart=/bin/vendor\n",
          "run/systemd/generator.early/sshd.service": "[Service]\nExecStart=/bin/x\n",
        },
        warnings: [
          "/etc/systemd/system.control/tend-web.service replaces it: systemd loads that file, not the one tend wrote; tend leaves it alone",
          "/run/systemd/transient/tend-web.service replaces it: systemd loads that file, not the one tend wrote; tend leaves it alone",
          "/run/systemd/system.control/tend-web.service.d/50-CPUQuota.conf changes it (CPUQuota); tend leaves drop-ins alone",
        ],
      },
    ],
  ] as const)("%s", async (_title, { tree, warnings }) => {
    const ctx = await readContext({ init: "systemd", runner: capturedHost() });
    const { writeHostTree } = await import("@tend/testkit");
    await writeHostTree(ctx.files.real("/"), tree);
    const observed = await observeUnits([svc("web", { exec: "/bin/sleep infinity" }), svc("sshd")], ctx);
    expect(observed.get("service:web")?.warnings).toEqual(warnings);
    expect(observed.get("service:web")?.drift).toBeUndefined();
    expect(observed.get("service:sshd")?.warnings).toBeUndefined();
  });

  it("looks in a user's runtime folders too, by uid", async () => {
    const runner = new RecordingRunner()
      .on("systemctl --user -M alice@ list-unit-files", { stdout: fixture("list-unit-files-user.json") })
      .on("systemctl --user -M alice@ list-units", { stdout: fixture("list-units-user.json") });
    const ctx = await readContext({ init: "systemd", scope: "user", runner });
    if (ctx.scope.kind !== "user") throw new Error("a user scope");
    const { writeHostTree } = await import("@tend/testkit");
    await writeHostTree(ctx.files.real("/"), {
      [`run/user/${ctx.scope.uid}/systemd/transient/tend-syncthing.service`]: "[Service]\nExecStart=/bin/other\n",
      [`${ctx.scope.home.slice(1)}/.config/systemd/user.control/tend-syncthing.service.d/50-MemoryMax.conf`]: "[Service]\nMemoryMax=1G\n",
    });
    const observed = await observeUnits([svc("syncthing", { exec: "syncthing serve --no-browser", user: true })], ctx);
    expect(observed.get("service:syncthing")?.warnings).toEqual([
      `/run/user/${ctx.scope.uid}/systemd/transient/tend-syncthing.service replaces it: systemd loads that file, not the one tend wrote; tend leaves it alone`,
      `${ctx.scope.home}/.config/systemd/user.control/tend-syncthing.service.d/50-MemoryMax.conf changes it (MemoryMax); tend leaves drop-ins alone`,
    ]);
  });
});

describe("observeUnits and boot truth", () => {
  it("predicts from the unit file state whether each service would run after a reboot, with no extra process", async () => {
    const runner = capturedHost();
    const observed = await observeUnits([svc("web", { exec: "/bin/web" }), svc("disabled", { exec: "/bin/x" }), svc("masked", { exec: "/bin/x" }), svc("indirect-demo")], await readContext({ init: "systemd", runner }));
    expect(observed.get("service:web")?.atBoot).toEqual({ starts: true });
    expect(observed.get("service:disabled")?.atBoot).toEqual({ starts: false, why: "it is not enabled" });
    expect(observed.get("service:masked")?.atBoot).toEqual({ starts: false, why: "it is masked" });
    // an indirect unit starts only when something pulls it in: no prediction
    expect(observed.get("service:indirect-demo")?.atBoot).toBeUndefined();
    expect(runner.lines.filter((l) => !l.startsWith("systemctl list-") && !l.includes("MainPID") && !l.includes("cgroup.procs"))).toEqual([]);
  });

  it("says an enabled user unit would not start after a reboot when its user has no linger, and would with it", async () => {
    const runner = new RecordingRunner()
      .on("systemctl --user -M alice@ list-unit-files", { stdout: fixture("list-unit-files-user.json") })
      .on("systemctl --user -M alice@ list-units", { stdout: fixture("list-units-user.json") });
    const sync = svc("syncthing", { exec: "syncthing serve --no-browser", user: true });
    const ctx = await readContext({ init: "systemd", scope: "user", runner });
    expect((await observeUnits([sync], ctx)).get("service:syncthing")?.atBoot).toEqual({
      starts: false,
      why: "alice has no linger, so alice's manager starts only when alice logs in (loginctl enable-linger alice)",
    });
    const { writeHostTree } = await import("@tend/testkit");
    await writeHostTree(ctx.files.real("/"), { "var/lib/systemd/linger/alice": "" });
    expect((await observeUnits([sync], ctx)).get("service:syncthing")?.atBoot).toEqual({ starts: true });
  });
});
