import type { Service } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { writeHostTree, type HostTree } from "@tend/testkit";
import { observeServices } from "./observe-services.js";

const service = (fields: Omit<Service, "type">): Service => ({ type: "service", ...fields });
const RC_STATUS = [
  " tend-web                                              [  started 00:01:02 (3) ]",
  " tend-old                                                          [  started  ]",
  " tend-down                                                         [  stopped  ]",
  " tend-crash                                                        [  crashed  ]",
  " sshd                                                              [  started  ]",
  " cron                                                              [  stopped  ]",
  "",
].join("\n");
const HOST = {
  "/etc/init.d/tend-web": "#!/sbin/openrc-run\nsupervisor=supervise-daemon\n",
  "/etc/init.d/tend-old": "#!/sbin/openrc-run\n",
  "/etc/init.d/tend-down": "#!/sbin/openrc-run\nsupervisor=supervise-daemon\n",
  "/etc/init.d/tend-crash": "#!/sbin/openrc-run\nsupervisor=supervise-daemon\n",
  "/etc/init.d/sshd": '#!/sbin/openrc-run\nextra_started_commands="reload"\nreload() { :; }\n',
  "/etc/init.d/cron": "#!/sbin/openrc-run\n",
  "/etc/runlevels/default/tend-web": { link: "/etc/init.d/tend-web" },
  "/etc/runlevels/default/tend-old": { link: "/etc/init.d/tend-old" },
  "/etc/runlevels/boot/sshd": { link: "/etc/init.d/sshd" },
  "/etc/runlevels/shutdown/cron": { link: "/etc/init.d/cron" },
  "/run/openrc/options/tend-web/child_pid": "4242",
  "/proc/4242": { dir: true },
  "/run/tend-old.pid": "999\n",
} as const;

const resources = [
  service({ name: "web", exec: "/opt/web/bin/server", restart: "always", reloadSignal: "HUP" }),
  service({ name: "old", exec: "/opt/old/bin/old" }),
  service({ name: "down", exec: "/opt/down/bin/down", restart: "on_failure" }),
  service({ name: "crash", exec: "/opt/crash", restart: "always" }),
  service({ name: "new", exec: "/opt/new" }),
  service({ name: "sshd" }),
  service({ name: "cron" }),
];

describe("observeServices", () => {
  it("observes every service with one rc-status and file reads", async () => {
    const runner = new RecordingRunner().on("rc-status -C -s", { stdout: RC_STATUS });
    const ctx = await applyContext({ init: "openrc", runner });
    await writeHostTree(ctx.rootDir, HOST);
    const observations = await observeServices(resources, ctx);
    expect(runner.lines).toEqual(["rc-status -C -s"]);
    expect(observations.get("service:web")).toEqual({
      exists: true,
      state: "running",
      enabled: true,
      canReload: true,
      atBoot: { starts: true },
      mainPid: 4242,
      details: { runlevels: "default", status: "started", uptime: "00:01:02", respawns: 3, pid: 4242 },
    });
    // Started as far as OpenRC knows (Debian's start-stop-daemon records nothing), but its pid is gone.
    expect(observations.get("service:old")).toMatchObject({ exists: true, state: "stopped", enabled: true, canReload: false, details: { status: "crashed", pid: 999 } });
    expect(observations.get("service:down")).toMatchObject({ exists: true, state: "stopped", enabled: false, details: { status: "stopped" } });
    expect(observations.get("service:crash")).toMatchObject({ state: "stopped", details: { status: "crashed" } });
    expect(observations.get("service:new")).toEqual({ exists: false, state: "stopped", enabled: false, canReload: false, details: { status: "stopped" } });
    // In the boot runlevel counts as enabled; a distro script's own reload counts.
    expect(observations.get("service:sshd")).toMatchObject({ exists: true, state: "running", enabled: true, canReload: true, details: { runlevels: "boot" } });
    // The shutdown runlevel does not start anything at boot.
    expect(observations.get("service:cron")).toMatchObject({ exists: true, state: "stopped", enabled: false, canReload: false, details: { runlevels: "shutdown" } });
  });

  it("reads a running service's pid the way the script on disk started it, not the way the edited spec would", async () => {
    const ctx = await applyContext({ init: "openrc", runner: new RecordingRunner().on("rc-status -C -s", { stdout: RC_STATUS }) });
    await writeHostTree(ctx.rootDir, HOST);
    // `restart` edited since the last apply: web's script still has supervise-daemon keep it, old's still backgrounds it.
    const edited = [service({ name: "web", exec: "/opt/web/bin/server" }), service({ name: "old", exec: "/opt/old/bin/old", restart: "always" })];
    const observations = await observeServices(edited, ctx);
    expect(observations.get("service:web")).toMatchObject({ state: "running", mainPid: 4242 });
    expect(observations.get("service:old")).toMatchObject({ state: "stopped", details: { status: "crashed", pid: 999 } });
  });

  it("predicts boot from the runlevel links: a boot runlevel starts it, another runlevel or none does not", async () => {
    const ctx = await applyContext({ init: "openrc", runner: new RecordingRunner().on("rc-status -C -s", { stdout: RC_STATUS }) });
    await writeHostTree(ctx.rootDir, HOST);
    const observations = await observeServices(resources, ctx);
    expect(observations.get("service:sshd")?.atBoot).toEqual({ starts: true });
    expect(observations.get("service:cron")?.atBoot).toEqual({ starts: false, why: "it is in the runlevel shutdown, which boot does not reach (it starts sysinit, boot, default)" });
    expect(observations.get("service:down")?.atBoot).toEqual({ starts: false, why: "it is in no runlevel (rc-update add it to default)" });
    expect(observations.get("service:new")?.atBoot).toBeUndefined();
  });

  it("runs nothing under --root and leaves the state unobserved", async () => {
    const runner = new RecordingRunner();
    const ctx = await applyContext({ init: "openrc", runner, offline: true });
    await writeHostTree(ctx.rootDir, HOST);
    const observations = await observeServices(resources, ctx);
    expect(runner.lines).toEqual([]);
    expect(observations.get("service:web")).toEqual({ exists: true, enabled: true, canReload: true, details: { runlevels: "default" }, atBoot: { starts: true } });
    expect(observations.get("service:new")).toEqual({ exists: false, enabled: false, canReload: false, details: {} });
  });

  /** Observes `services`, each a supervised tend script, with rc-status giving each its `statuses` word, on a host with `tree`. */
  async function observeSupervised(statuses: Record<string, string>, services: Service[], tree: HostTree = {}) {
    const status = [...Object.entries(statuses).map(([name, word]) => ` tend-${name}`.padEnd(66) + `[  ${word}  ]`), ""].join("\n");
    const ctx = await applyContext({ init: "openrc", runner: new RecordingRunner().on("rc-status -C -s", { stdout: status }) });
    const scripts = Object.fromEntries(services.map((s) => [`/etc/init.d/tend-${s.name}`, "#!/sbin/openrc-run\nsupervisor=supervise-daemon\n"]));
    await writeHostTree(ctx.rootDir, { ...scripts, ...tree });
    return observeServices(services, ctx);
  }

  it("counts a supervised service OpenRC calls started as crashed when no process it recorded lives, not while its supervisor is still starting it", async () => {
    const observations = await observeSupervised({ gone: "started", early: "started" }, [service({ name: "gone", exec: "/opt/gone", restart: "always" }), service({ name: "early", exec: "/opt/early", restart: "always" })], {
      // A supervisor gone, its pidfile left, and the pidfile of a background daemon the script had before: still no process.
      "/run/supervise-tend-gone.pid": "5100\n",
      "/run/tend-gone.pid": "5101\n",
      // A live supervisor that has not written its child's pid yet.
      "/run/supervise-tend-early.pid": "5200\n",
      "/proc/5200": { dir: true },
    });
    expect(observations.get("service:gone")).toMatchObject({ state: "stopped", details: { status: "crashed" } });
    expect(observations.get("service:early")).toMatchObject({ state: "running", details: { status: "started" } });
  });

  it("reports as drift a service the spec wants stopped that OpenRC counts started while nothing it started runs, and only that one", async () => {
    const stopped = { state: "stopped", enabled: true } as const;
    const observations = await observeSupervised(
      { gone: "started", crash: "crashed", off: "stopped" },
      [
        service({ name: "gone", exec: "/opt/gone", desired: stopped }),
        service({ name: "crash", exec: "/opt/crash", desired: stopped }),
        service({ name: "off", exec: "/opt/off", desired: stopped }),
        // Wanted running, it is started again, which resets the record anyway.
        service({ name: "wanted", exec: "/opt/wanted" }),
      ],
    );
    for (const name of ["gone", "crash"]) expect(observations.get(`service:${name}`), name).toMatchObject({ state: "stopped", drift: ["OpenRC counts it started, but nothing it started runs"] });
    for (const name of ["off", "wanted"]) expect(observations.get(`service:${name}`)?.drift, name).toBeUndefined();
  });

  it("runs nothing for no services", async () => {
    const runner = new RecordingRunner();
    const ctx = await applyContext({ init: "openrc", runner });
    expect((await observeServices([], ctx)).size).toBe(0);
    expect(runner.lines).toEqual([]);
  });
});
