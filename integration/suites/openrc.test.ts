import { startHost, type TestHost } from "@tend/testkit/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applySpec, planSpec } from "../support/apply-spec.js";
import { DEMO, demoLog, demoStarts } from "../support/demo-daemon.js";
import { GREETING } from "../support/greeting.js";
import { GUARD, ONCE, WEB } from "../support/restart-policy-services.js";
import { doc, spec } from "../support/spec-documents.js";

/**
 * Services on a booted OpenRC (Debian's openrc 0.45 under sysvinit), driven through the tend CLI
 * as an admin would: the scripts @tend/provider-openrc writes, rc-update and rc-service, the
 * restart policies of the seed's table when the process is killed, `need net` and `after`,
 * distro services, reloads, drift, verification and removal.
 */

const SPEC = "/spec/tend.yaml";

/** Stands in for a distro's networking script: OpenRC's `need net` wants something that provides net. */
const DEMO_NET = `#!/sbin/openrc-run
description="Stands in for a distro's networking script"
depend() {
\tprovide net
}
start() {
\tebegin "Bringing up the demo network"
\teend 0
}
stop() {
\tebegin "Taking down the demo network"
\teend 0
}
`;

/** Stands in for a script a distro package ships, with a reload of its own. */
const DEMO_DISTRO = `#!/sbin/openrc-run
description="A distro service with its own reload"
supervisor=supervise-daemon
command=/opt/demo/bin/demo
command_args="distro"
extra_started_commands="reload"
reload() {
\tebegin "Reloading \${RC_SVCNAME}"
\tsupervise-daemon "\${RC_SVCNAME}" --signal HUP
\teend $?
}
`;

/** One DEMO service per restart policy: web always, guard on_failure, once no. */
const BASE = [WEB, GUARD, ONCE];

describe("services on a booted OpenRC", () => {
  let host: TestHost;

  beforeAll(async () => {
    host = await startHost("openrc");
    await host.writeFile("/opt/demo/bin/demo", DEMO, { mode: 0o755 });
  });

  afterAll(async () => {
    await host?.stop();
  });

  const apply = (docs: string[], exitCode = 0) => applySpec(host, SPEC, docs, exitCode);
  const plan = (exitCode: number) => planSpec(host, SPEC, exitCode);
  const childPid = async (script: string) => (await host.exec(["cat", `/run/openrc/options/${script}/child_pid`])).stdout.trim();
  const alive = async (pid: string) => pid !== "" && (await host.exec(["test", "-d", `/proc/${pid}`])).exitCode === 0;
  const status = async (script: string) => {
    const line = (await host.mustSh("rc-status -C -s")).split("\n").find((l) => l.startsWith(` ${script} `));
    return line?.replace(/^ \S+ +\[ *(.*?) *\]$/, "$1");
  };

  it("serves services with the OpenRC provider", async () => {
    await host.writeFile(SPEC, spec(...BASE));
    expect(await host.expectTend(["providers", "-f", SPEC])).toMatch(/^\* @tend\/provider-openrc@\S+\s+service on openrc/m);
    expect(await host.expectTend(["plan", "-f", SPEC])).toContain("host openrc-host (OpenRC)");
  });

  it("adds services: scripts written, in the default runlevel, started, env byte for byte", async () => {
    const output = await apply(BASE);
    expect(output).toContain("service:web: verified");
    for (const name of ["web", "guard", "once"]) {
      expect(await host.mustSh(`stat -c '%a %U %G' /etc/init.d/tend-${name}`)).toBe("755 root root\n");
      expect(await host.mustSh(`readlink /etc/runlevels/default/tend-${name}`)).toBe(`/etc/init.d/tend-${name}\n`);
      expect(await status(`tend-${name}`)).toMatch(/^started/);
    }
    const script = await host.readFile("/etc/init.d/tend-web");
    expect(script.startsWith("#!/sbin/openrc-run\n# Managed by tend. Edits are overwritten on the next apply.\n")).toBe(true);
    expect(script).toContain("supervisor=supervise-daemon");
    expect(await host.readFile("/etc/init.d/tend-once")).toContain("command_background=true");

    const pid = await childPid("tend-web");
    const environ = (await host.exec(["cat", `/proc/${pid}/environ`])).stdout.split("\0");
    expect(environ).toContain(`GREETING=${GREETING}`);
    expect(await demoStarts(host, "web")).toEqual([`start ${pid} ${GREETING}`]);
    expect((await host.exec(["test", "-e", "/tmp/pwned"])).exitCode).toBe(1);
  });

  it("plans nothing on a second run", async () => {
    expect(await plan(0)).toContain("0 to add, 0 to change, 0 to remove");
  });

  it('restart = "always": supervise-daemon respawns a killed process', async () => {
    const before = await childPid("tend-web");
    await host.mustSh(`kill ${before}`);
    const after = await host.waitFor(async () => {
      const pid = await childPid("tend-web");
      return pid !== before && (await alive(pid)) ? pid : undefined;
    }, { timeoutMs: 15_000, what: "supervise-daemon to respawn tend-web" });
    expect(await status("tend-web")).toMatch(/^started \S+ \(1\)$/);
    expect((await demoStarts(host, "web")).at(-1)).toBe(`start ${after} ${GREETING}`);
    expect(await plan(0)).toContain("0 to change");
  });

  it('restart = "on_failure": supervise-daemon restarts on any exit, a clean one too (the seed)', async () => {
    const before = await childPid("tend-guard");
    await host.mustSh(`kill -USR1 ${before}`);
    await host.waitFor(async () => (await demoLog(host, "guard")).includes(`usr1 ${before}`), { timeoutMs: 10_000, what: "tend-guard to exit 0" });
    await host.waitFor(async () => {
      const pid = await childPid("tend-guard");
      return pid !== before && (await alive(pid));
    }, { timeoutMs: 15_000, what: "supervise-daemon to restart tend-guard after a clean exit" });
    expect(await demoStarts(host, "guard")).toHaveLength(2);
  });

  it('restart = "no": a killed process stays dead, and the next apply starts it again', async () => {
    const pid = (await host.readFile("/run/tend-once.pid")).trim();
    await host.mustSh(`kill ${pid}`);
    await host.waitFor(async () => !(await alive(pid)), { timeoutMs: 10_000, what: "tend-once to exit" });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await demoStarts(host, "once")).toHaveLength(1);
    // Debian's start-stop-daemon records nothing for OpenRC: it still says started; tend sees the pid is gone.
    expect(await status("tend-once")).toBe("started");
    expect(await plan(2)).toMatch(/~ service:once {2}start\n\s+reason {2}stopped, want running/);
    await apply(BASE);
    expect(await demoStarts(host, "once")).toHaveLength(2);
    expect(await alive((await host.readFile("/run/tend-once.pid")).trim())).toBe(true);
    await plan(0);
  });

  it("moves a running service between supervise-daemon and a background daemon without a second copy", async () => {
    const processes = async () => (await host.mustSh("ps -eo args")).split("\n").filter((line) => line === "/bin/sh /opt/demo/bin/demo web");
    await apply([WEB.replace("restart: always", 'restart: "no"'), GUARD, ONCE]);
    expect(await processes()).toHaveLength(1);
    expect((await host.mustSh("ps -eo args")).includes("supervise-daemon tend-web")).toBe(false);
    await apply(BASE);
    expect(await processes()).toHaveLength(1);
    expect(await status("tend-web")).toMatch(/^started \S+ \(0\)$/);
  });

  it("fails verification for a program that dies right after starting, and says so", async () => {
    const flaky = doc("type: Service\nname: flaky\nexec: /opt/demo/bin/demo flaky 1\nrestart: always");
    const output = await apply([...BASE, flaky], 1);
    expect(output).toMatch(/service:flaky did not verify/);
    await apply(BASE);
    expect((await host.exec(["test", "-e", "/etc/init.d/tend-flaky"])).exitCode).toBe(1);
  });

  describe("need net and after", () => {
    const API = doc("type: Service\nname: api\nexec: /opt/demo/bin/demo api\nrestart: on_failure\nafter: [network, db]");
    const DB = doc("type: Service\nname: db\nexec: /opt/demo/bin/demo db\nrestart: always");

    it("fails plan where nothing provides net (Debian's openrc ships no provider)", async () => {
      await host.writeFile(SPEC, spec(...BASE, API, DB));
      const output = await host.expectTend(["plan", "-f", SPEC], { exitCode: 1 });
      expect(output).toContain(
        'service:api orders itself after "network", which OpenRC writes as `need net`, but no service on this host provides `net`, so OpenRC would never start it',
      );
      expect((await host.exec(["test", "-e", "/etc/init.d/tend-api"])).exitCode).toBe(1);
    });

    it("starts the service once something provides net, and OpenRC starts in the order after asks", async () => {
      await host.writeFile("/etc/init.d/demo-net", DEMO_NET, { mode: 0o755 });
      await apply([...BASE, API, DB]);
      expect(await status("tend-api")).toMatch(/^started/);
      expect(await status("demo-net")).toBe("started");
      expect(await host.readFile("/etc/init.d/tend-api")).toContain("depend() {\n\tneed net\n\tafter tend-db\n}\n");

      // OpenRC's own boot order: stop them all and bring the default runlevel up again.
      await host.mustSh("rc-service tend-api stop && rc-service tend-db stop && rc-service demo-net stop");
      const boot = await host.mustSh("openrc default 2>&1");
      const at = (text: string) => boot.indexOf(text);
      expect(at("Bringing up the demo network")).toBeGreaterThanOrEqual(0);
      expect(at("Starting tend-db")).toBeGreaterThan(at("Bringing up the demo network"));
      expect(at("Starting tend-api")).toBeGreaterThan(at("Starting tend-db"));
      await plan(0);
      await apply(BASE);
      expect(await status("tend-api")).toBeUndefined();
    });
  });

  describe("distro services", () => {
    const DISTRO = doc("type: Service\nname: demo-distro");

    it("enables a script the distro ships without starting it, and fails plan for a missing one", async () => {
      await host.writeFile("/etc/init.d/demo-distro", DEMO_DISTRO, { mode: 0o755 });
      const output = await apply([...BASE, DISTRO]);
      expect(output).toContain("service:demo-distro");
      expect(await host.mustSh("readlink /etc/runlevels/default/demo-distro")).toBe("/etc/init.d/demo-distro\n");
      // Only enabled at boot, never started (rc-service status: 3 = stopped).
      expect((await host.exec(["rc-service", "demo-distro", "status"])).exitCode).toBe(3);
      await plan(0);

      await host.writeFile(SPEC, spec(...BASE, DISTRO, doc("type: Service\nname: nosuch")));
      expect(await host.expectTend(["plan", "-f", SPEC], { exitCode: 1 })).toContain(
        "service:nosuch has no exec, but /etc/init.d/nosuch does not exist; install the package that ships it",
      );
    });

    it("disables it on removal and leaves the distro's script alone", async () => {
      await apply(BASE);
      expect((await host.exec(["test", "-L", "/etc/runlevels/default/demo-distro"])).exitCode).toBe(1);
      expect(await host.readFile("/etc/init.d/demo-distro")).toBe(DEMO_DISTRO);
    });
  });

  describe("reloadOn", () => {
    const conf = (content: string) => doc(`type: File\nname: conf\npath: /etc/demo.conf\ncontent: "${content}\\n"`);
    const APP = doc('type: Service\nname: app\nexec: /opt/demo/bin/demo app\nrestart: always\nreloadSignal: HUP\nreloadOn: ["file:conf"]');
    const BGAPP = doc('type: Service\nname: bgapp\nexec: /opt/demo/bin/demo bgapp\nreloadSignal: HUP\nreloadOn: ["file:conf"]');
    const DISTRO = doc('type: Service\nname: demo-distro\nreloadOn: ["file:conf"]\ndesired: {state: running, enabled: true}');

    it("reloads supervised, background and distro services in place", async () => {
      await apply([...BASE, conf("one"), APP, BGAPP, DISTRO]);
      const pids = { app: await childPid("tend-app"), bgapp: (await host.readFile("/run/tend-bgapp.pid")).trim(), distro: await childPid("demo-distro") };
      const output = await apply([...BASE, conf("two"), APP, BGAPP, DISTRO]);
      expect(output).toContain("service:app: changed, reloaded (file:conf changed, reloadOn matched)");
      for (const [name, pid] of Object.entries(pids)) {
        await host.waitFor(async () => (await demoLog(host, name)).includes(`hup ${pid}`), { timeoutMs: 10_000, what: `${name} to get SIGHUP` });
        expect(await demoStarts(host, name)).toHaveLength(1);
      }
    });

    it("fails plan for a service that cannot reload, never restarting it instead", async () => {
      const plain = doc('type: Service\nname: plain\nexec: /opt/demo/bin/demo plain\nreloadOn: ["file:conf"]');
      await host.writeFile(SPEC, spec(...BASE, conf("three"), plain));
      expect(await host.expectTend(["plan", "-f", SPEC], { exitCode: 1 })).toContain("service:plain lists resources in reloadOn, but it cannot reload on OpenRC");
      await apply(BASE);
      expect(await host.readFile("/etc/init.d/demo-distro")).toBe(DEMO_DISTRO);
    });
  });

  it("fails plan with the seed's errors for user services and the systemd escape hatch", async () => {
    await host.writeFile(SPEC, spec(...BASE, doc("type: Service\nname: sync\nexec: /usr/bin/syncthing\nuser: true")));
    expect(await host.expectTend(["plan", "-f", SPEC, "--user", "alice"], { exitCode: 1 })).toContain("service:sync sets user = True, but OpenRC has no user services");
    await host.writeFile(SPEC, spec(...BASE, doc("type: Service\nname: capped\nexec: /opt/demo/bin/demo capped\nsystemd:\n  MemoryMax: 512M")));
    expect(await host.expectTend(["plan", "-f", SPEC], { exitCode: 1 })).toContain(
      "service:capped sets `systemd` (MemoryMax), which only systemd supports, and this host uses OpenRC",
    );
  });

  it("reports an edited script as drift and restores it, restarting the service", async () => {
    await host.writeFile(SPEC, spec(...BASE));
    const original = await host.readFile("/etc/init.d/tend-web");
    const before = await childPid("tend-web");
    await host.writeFile("/etc/init.d/tend-web", `${original}respawn_max=3\n`, { mode: 0o755 });
    expect(await plan(2)).toContain("! service:web drifted: /etc/init.d/tend-web was edited");
    await host.expectTend(["apply", "-f", SPEC]);
    expect(await host.readFile("/etc/init.d/tend-web")).toBe(original);
    const after = await childPid("tend-web");
    expect(after).not.toBe(before);
    expect(await alive(after)).toBe(true);
    await plan(0);
  });

  it("removes services: stopped, out of the runlevel, scripts deleted", async () => {
    const pids = [await childPid("tend-web"), await childPid("tend-guard"), (await host.readFile("/run/tend-once.pid")).trim()];
    await apply([]);
    for (const name of ["web", "guard", "once"]) {
      expect((await host.exec(["test", "-e", `/etc/init.d/tend-${name}`])).exitCode).toBe(1);
      expect((await host.exec(["test", "-L", `/etc/runlevels/default/tend-${name}`])).exitCode).toBe(1);
      expect(await status(`tend-${name}`)).toBeUndefined();
    }
    for (const pid of pids) expect(await alive(pid)).toBe(false);
    expect(await host.mustSh("ps -eo args")).not.toMatch(/demo (web|guard|once)|supervise-daemon tend-/);
    await plan(0);
  });
});
