import { startHost, type TestHost } from "@tend/testkit/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applySpec, planSpec } from "../support/apply-spec.js";
import { commandsOfRun, withoutRepeats } from "../support/commands-of-run.js";
import { proveTimerNeedsCron } from "../support/cron-missing.js";
import { DEMO, demoLog, demoStarts } from "../support/demo-daemon.js";
import { EXEC_FORMS, hupsReceived, livePids, startedPids, type ExecForm } from "../support/exec-forms.js";
import { GREETING } from "../support/greeting.js";
import { installKillingStandIn } from "../support/killing-stand-in.js";
import { GUARD, ONCE, WEB } from "../support/restart-policy-services.js";
import { bootDisabledService, proveBootTruth } from "../support/boot-truth.js";
import { proveModeDrift } from "../support/file-modes.js";
import { proveVerifyAcrossClockStep } from "../support/clock-step.js";
import { proveOlderDefinitionRestart } from "../support/older-definition.js";
import { proveLedgerYieldsToSpec } from "../support/ledger-yields.js";
import { proveRestartLedger } from "../support/restart-ledger.js";
import { provePurePlans } from "../support/side-effects.js";
import { proveStaleBuildRestart } from "../support/stale-build.js";
import { serviceWave } from "../support/service-wave.js";
import { convergeService, EVERY_DESIRED_STATE, everyDesiredStateFrom } from "../support/desired-states.js";
import { proveRandomWalk, WALK, WALK_TIMEOUT_MS, withoutWalkCopies, type WalkOptions } from "../support/random-walk.js";
import { proveDeletedDefinition } from "../support/deleted-definition.js";
import { doc, spec } from "../support/spec-documents.js";

/** What an admin does by hand in the random walk: edit or delete a service's definition, stop it, disable it. */
const BY_HAND: WalkOptions["byHand"] = { definition: (unit) => `/etc/init.d/${unit}`, stop: (unit) => ["rc-service", unit, "stop"], disable: (unit) => ["rc-update", "del", unit, "default"] };

/**
 * Services on a booted OpenRC (Debian's openrc 0.45 under sysvinit), driven through the tend CLI
 * as an admin would: the scripts @tend/provider-openrc writes, rc-update and rc-service, the
 * restart policies of the seed's table when the process is killed, `need net` and `after`,
 * distro services (Debian's cron in every state × enabled), reloads, drift, verification and
 * removal, and every form of `exec` through kill, change, restartOn, reloadOn, desired stopped and
 * removal, its processes counted in the process table.
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

  it("a supervised service OpenRC still counts started when its supervisor, its program and their records are gone (a stop cut off before OpenRC recorded it): plan sees it stopped, and apply starts it, where a restart would fail to stop it", async () => {
    await apply(BASE); // its own starting point, so that it also runs alone
    const before = await childPid("tend-web");
    // What supervise-daemon's stop does, without the record of it openrc-run would make next.
    await host.mustSh("RC_SVCNAME=tend-web supervise-daemon tend-web --stop && RC_SVCNAME=tend-web /lib/rc/sbin/mark_service_started tend-web");
    expect(await status("tend-web")).toBe("started");
    expect(await alive(before)).toBe(false);
    expect(await livePids(host, "web")).toEqual([]);
    expect(await plan(2)).toMatch(/~ service:web {2}start\n\s+reason {2}stopped, want running/);
    await apply(BASE);
    const after = await childPid("tend-web");
    expect(after).not.toBe(before);
    expect(await livePids(host, "web")).toEqual([after]);
    expect(await status("tend-web")).toMatch(/^started/);
    await plan(0);
  });

  it("a service the spec wants stopped that OpenRC still counts started with nothing running: plan shows it as drift, and apply resets OpenRC's record, so that rc-service can start it again", async () => {
    await apply(BASE);
    const before = await childPid("tend-web");
    await host.mustSh("RC_SVCNAME=tend-web supervise-daemon tend-web --stop && RC_SVCNAME=tend-web /lib/rc/sbin/mark_service_started tend-web");
    expect(await status("tend-web")).toBe("started");
    const stopped = [`${WEB}desired: {state: stopped, enabled: true}\n`, GUARD, ONCE];
    await host.writeFile(SPEC, spec(...stopped));
    const planned = await plan(2);
    expect(planned).toContain("service:web drifted: OpenRC counts it started, but nothing it started runs");
    expect(planned).not.toMatch(/service:web +(stop|start|restart)/);
    expect(await apply(stopped)).toContain("service:web: reset OpenRC's record of it as started, as nothing it started runs");
    expect(await status("tend-web")).toBe("stopped");
    expect(await livePids(host, "web")).toEqual([]);
    await plan(0);
    // An admin's start now starts it (before the reset it said it was already started).
    await host.mustSh("rc-service tend-web start");
    const started = await childPid("tend-web");
    expect(started).not.toBe(before);
    expect(await livePids(host, "web")).toEqual([started]);
    await apply(BASE);
    expect(await livePids(host, "web")).toEqual([started]);
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

  it("sees a service it moves to another supervision running as its old script left it: a restart, or a stop of that process", async () => {
    const processes = async () => (await host.mustSh("ps -eo args")).split("\n").filter((line) => line === "/bin/sh /opt/demo/bin/demo web");
    const background = WEB.replace("restart: always", 'restart: "no"');
    // The edited spec says background; the process running is supervise-daemon's, and it is seen.
    await host.writeFile(SPEC, spec(background, GUARD, ONCE));
    const edited = await plan(2);
    expect(edited).toMatch(/~ service:web {2}restart\n/);
    expect(edited).not.toContain("stopped, want running");
    // Moved and stopped in one apply: the old script's process is stopped, nothing is started.
    await apply([`${background}desired: {state: stopped, enabled: true}\n`, GUARD, ONCE]);
    expect(await processes()).toHaveLength(0);
    expect((await host.mustSh("ps -eo args")).includes("supervise-daemon tend-web")).toBe(false);
    await plan(0);
    await apply(BASE);
    expect(await processes()).toHaveLength(1);
    await plan(0);
  });

  it("an apply killed after writing a script with the other supervision, before restarting: the next apply stops the old process the old way, for a restart and a removal alike, and one copy runs", async () => {
    const processes = async () => (await host.mustSh("ps -eo args")).split("\n").filter((line) => line === "/bin/sh /opt/demo/bin/demo web");
    const supervised = async () => (await host.mustSh("ps -eo args")).includes("supervise-daemon tend-web");
    const background = WEB.replace("restart: always", 'restart: "no"');
    await apply(BASE);
    let remove = async () => {};
    try {
      for (const [then, copies] of [[[background, GUARD, ONCE], 1], [[GUARD, ONCE], 0]] as const) {
        // Kills the apply at its first stop of a service, before anything is stopped (openrc-run's own calls pass through).
        remove = await installKillingStandIn(host, { program: "supervise-daemon", real: "/usr/sbin/supervise-daemon", word: "--stop" });
        const [old] = await livePids(host, "web");
        expect(await supervised()).toBe(true);
        await host.writeFile(SPEC, spec(background, GUARD, ONCE));
        const killed = await host.tend(["apply", "-f", SPEC]);
        expect(killed.exitCode, killed.stdout + killed.stderr).toBe(137);
        // The new script is written; the process supervise-daemon keeps runs on, as the kill left it.
        expect(await host.readFile("/etc/init.d/tend-web")).toContain("command_background=true");
        expect(await livePids(host, "web")).toEqual([old]);
        await apply([...then]);
        expect(await processes()).toHaveLength(copies);
        expect(await supervised()).toBe(false);
        if (copies === 1) expect(await livePids(host, "web")).not.toContain(old);
        await plan(0);
        await apply(BASE);
        expect(await processes()).toHaveLength(1);
      }
    } finally {
      await remove();
    }
  });

  /**
   * Applies BASE, then `docs`, which change NAME, with a stand-in that kills that apply at its
   * `rc-service restart` and carries the restart out `after` seconds later, as a command left
   * running would (its output going where tend's went). Resolves with NAME's pid before, and what
   * removes the stand-in.
   */
  const killAtRestart = async (name: string, docs: string[], after: number): Promise<{ old: string; remove: () => Promise<void> }> => {
    await apply(BASE);
    const [old] = await livePids(host, name);
    expect(old).toBeDefined();
    const remove = await installKillingStandIn(host, { program: "rc-service", real: "/usr/sbin/rc-service", word: "restart", carryOnAfter: after });
    await host.writeFile(SPEC, spec(...docs));
    const killed = await host.tend(["apply", "-f", SPEC]);
    expect(killed.exitCode, killed.stdout + killed.stderr).toBe(137);
    return { old: old!, remove };
  };

  it("an apply killed after it stopped a background daemon the old way, before OpenRC's record was reset: the next apply sees nothing running and starts it under supervise-daemon, where its stop would fail", async () => {
    await apply(BASE);
    const [old] = await livePids(host, "once");
    expect(old).toBeDefined();
    const supervisedOnce = `${ONCE}restart: always\n`;
    // Kills the apply at the zap that follows the old daemon's stop (see stopKeptBy).
    const remove = await installKillingStandIn(host, { program: "rc-service", real: "/usr/sbin/rc-service", word: "zap" });
    try {
      await host.writeFile(SPEC, spec(WEB, GUARD, supervisedOnce));
      const killed = await host.tend(["apply", "-f", SPEC]);
      expect(killed.exitCode, killed.stdout + killed.stderr).toBe(137);
    } finally {
      await remove();
    }
    // The old daemon is gone; OpenRC still counts the service started, with nothing behind it.
    expect(await livePids(host, "once")).toEqual([]);
    expect(await status("tend-once")).toBe("started");
    expect(await plan(2)).toContain("~ service:once");
    await apply([WEB, GUARD, supervisedOnce]);
    const [now] = await livePids(host, "once");
    expect(now).toBeDefined();
    expect(now).not.toBe(old);
    expect(await host.mustSh("ps -eo args")).toContain("supervise-daemon tend-once");
    await plan(0);
    await apply(BASE);
    expect(await livePids(host, "once")).toHaveLength(1);
  });

  it("an apply killed while its rc-service restart runs: the next apply waits for that command before it looks, so the service ends as that apply planned", async () => {
    const changed = `${ONCE}env:\n  ROUND: "2"\n`;
    const { remove } = await killAtRestart("once", [WEB, GUARD, changed], 2);
    try {
      // The next apply wants it stopped; the restart left running would start it again after it looked.
      await apply([WEB, GUARD, `${changed}desired: {state: stopped, enabled: true}\n`]);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(await livePids(host, "once")).toEqual([]);
      await plan(0);
    } finally {
      await remove();
    }
    await apply(BASE);
    expect(await livePids(host, "once")).toHaveLength(1);
  });

  it("an apply killed while its rc-service restart of a supervised service runs: that restart runs to its end though no one reads its output, and the next apply waits for it, not for the supervise-daemon it leaves in its process group", async () => {
    const changed = `${GUARD}env:\n  ROUND: "2"\n`;
    const { old, remove } = await killAtRestart("guard", [WEB, changed, ONCE], 1);
    try {
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      // The restart ran to its end: stopped, and started again on the new script.
      const [now] = await livePids(host, "guard");
      expect(now).toBeDefined();
      expect(now).not.toBe(old);
      expect((await host.readFile(`/proc/${now}/environ`)).split("\0")).toContain("ROUND=2");
      const started = Date.now();
      await apply([WEB, changed, ONCE]);
      expect(Date.now() - started).toBeLessThan(60_000); // the supervise-daemon it started lives on in its group
      await plan(0);
    } finally {
      await remove();
    }
    await apply(BASE);
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

  describe("read-only commands change nothing (G2)", () => {
    const conf = (content: string) => doc(`type: File\nname: pure-conf\npath: /etc/pure/pure.conf\ncontent: "${content}\\n"`);
    const PURE = doc('type: Service\nname: pure\nexec: /opt/demo/bin/demo pure\nrestart: always\nreloadSignal: HUP\nreloadOn: ["File[pure-conf]"]\nenv: {API_TOKEN: abcd1234}');
    /** What a plan may ask OpenRC: the states of every service, in one call. */
    const READ_ONLY = /^rc-status -C -s$/;

    it("plan, plan --diff and observe run only rc-status and change no file, converged or not; the same spy sees all that apply does", async () => {
      const changedText = spec(...BASE, conf("a = 2"), PURE.replace("abcd1234", "efgh5678"));
      const applied = await provePurePlans(host, { spec: "/spec/pure.yaml", docs: [...BASE, conf("a = 1"), PURE], changed: "/spec/pure-changed.yaml", changedText, queries: READ_ONLY });
      // Its env holds a token: the script OpenRC ran is root's to read alone.
      expect(await host.mustExec(["stat", "-c", "%a", "/etc/init.d/tend-pure"])).toBe("700\n");
      expect(applied.changes.filter((call) => call.includes('"/etc/pure/')).length).toBeGreaterThan(0);
      expect(applied.changes.filter((call) => call.includes('"/etc/init.d/tend-pure')).length).toBeGreaterThan(0);
      expect(applied.commands.map((argv) => argv.join(" ")).filter((line) => !READ_ONLY.test(line))).toEqual(expect.arrayContaining([expect.stringMatching(/^rc-service -- tend-pure restart$/)]));
      await apply(BASE);
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

  /**
   * Every form an admin writes `exec` in, supervised (`fx-<form>`, restart = "always") and as a
   * background daemon (`bx-<form>`, restart = "no"), each with restartOn and (where the program
   * gets the signal) reloadOn with reloadSignal HUP. Processes are counted in the process table.
   */
  describe("exec forms", () => {
    const FORMS = Object.keys(EXEC_FORMS) as ExecForm[];
    /**
     * The forms whose program is the process OpenRC starts, so it is what a signal reaches and
     * what supervise-daemon respawns. A pipeline's process is its shell: reloadSignal is refused,
     * and a killed shell is respawned while the rest of the pipeline runs on (plan warns of it);
     * no test kills it.
     */
    const SIGNALLED = FORMS.filter((form) => form !== "pipeline");
    const fx = (form: ExecForm) => `fx-${form.toLowerCase()}`;
    const bx = (form: ExecForm) => `bx-${form.toLowerCase()}`;
    const NAMES = FORMS.flatMap((form) => [fx(form), bx(form)]);
    /** Every program name a form's service logs under: a pipeline runs two. */
    const programs = (name: string) => (name.endsWith("-pipeline") ? [name, `${name}-tail`] : [name]);
    const conf = (name: string, content: string) => doc(`type: File\nname: ${name}\npath: /etc/${name}.conf\ncontent: "${content}\\n"`);
    const formDoc = (form: ExecForm, name: string, options: { restart: "always" | "no"; extra?: string }) =>
      doc(
        [
          "type: Service",
          `name: ${name}`,
          `exec: ${JSON.stringify(EXEC_FORMS[form](name))}`,
          `restart: ${JSON.stringify(options.restart)}`,
          'restartOn: ["file:fx-restart"]',
          ...(form === "pipeline" ? [] : ["reloadSignal: HUP", 'reloadOn: ["file:fx-reload"]']),
          "verify: {settle: 1}",
          options.extra ?? "",
        ].join("\n"),
      );
    const forms = (files: { restart?: string; reload?: string; extra?: string } = {}) => [
      ...BASE,
      conf("fx-restart", files.restart ?? "one"),
      conf("fx-reload", files.reload ?? "one"),
      ...FORMS.flatMap((form) => [formDoc(form, fx(form), { restart: "always", extra: files.extra }), formDoc(form, bx(form), { restart: "no", extra: files.extra })]),
    ];
    /**
     * Waits until each program of every service named has exactly one live process, then a
     * little longer (a second copy would show by then), and returns the live pids by program.
     */
    const settledLive = async (...names: string[]) => {
      const all = names.flatMap(programs);
      const live = async () => Object.fromEntries(await Promise.all(all.map(async (program) => [program, await livePids(host, program)] as const)));
      await host.waitFor(async () => Object.values(await live()).every((pids) => pids.length === 1), { timeoutMs: 20_000, what: `exactly one live process of each of ${all.join(", ")}` });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      return live();
    };
    const liveNone = async () => {
      const all = NAMES.flatMap(programs);
      await host.waitFor(async () => (await Promise.all(all.map((program) => livePids(host, program)))).every((pids) => pids.length === 0), {
        timeoutMs: 15_000,
        what: "no live process of any form",
      });
    };
    const processOf = async (name: string) => (name.startsWith("fx-") ? childPid(`tend-${name}`) : (await host.readFile(`/run/tend-${name}.pid`)).trim());
    const cmdline = async (pid: string) => (await host.readFile(`/proc/${pid}/cmdline`)).split("\0").slice(0, -1);

    it("runs each form as the process OpenRC supervises: the program itself, its argv byte for byte, or one sh -c for a pipeline", async () => {
      await apply(forms());
      const live = await settledLive(...NAMES);
      for (const name of NAMES) {
        const form = FORMS.find((f) => name.endsWith(`-${f.toLowerCase()}`))!;
        const pid = await processOf(name);
        if (form === "pipeline") {
          expect(await cmdline(pid)).toEqual(["/bin/sh", "-c", EXEC_FORMS.pipeline(name)]);
          // Both programs of the pipeline are the shell's children, in the service's process group.
          for (const program of programs(name)) {
            expect((await host.mustSh(`ps -o ppid=,pgid= -p ${live[program]![0]}`)).trim().split(/\s+/)).toEqual([pid, (await host.mustSh(`ps -o pgid= -p ${pid}`)).trim()]);
          }
          continue;
        }
        expect(live[name]).toEqual([pid]);
        const expected: Record<Exclude<ExecForm, "pipeline">, string[]> = {
          shellLoop: ["/bin/sh", "-c", EXEC_FORMS.shellLoop(name).slice("/bin/sh -c '".length, -1)],
          quotedArgs: ["/bin/sh", "/opt/demo/bin/demo", name, "", "daemon off;"],
          scriptPath: ["/bin/sh", "/opt/demo/bin/demo", name],
          shellThenExec: ["/bin/sh", "/opt/demo/bin/demo", name],
        };
        expect(await cmdline(pid)).toEqual(expected[form]);
      }
      expect(await host.readFile("/etc/init.d/tend-fx-quotedargs")).not.toContain("/bin/sh");
      await plan(0);
    });

    it("warns in plan that supervise-daemon respawns only the shell of a supervised pipeline, and refuses reloadSignal on a pipeline", async () => {
      expect(await plan(0)).toContain(`! service:${fx("pipeline")} warning: its exec keeps /bin/sh in front of the program`);
      const reloading = forms().map((d) => (d.includes(`name: ${fx("pipeline")}\n`) ? d.replace("verify:", 'reloadSignal: HUP\nreloadOn: ["file:fx-reload"]\nverify:') : d));
      await host.writeFile(SPEC, spec(...reloading));
      expect(await host.expectTend(["plan", "-f", SPEC], { exitCode: 1 })).toContain(
        `service:${fx("pipeline")} sets reloadSignal = "HUP", but its exec keeps /bin/sh in front of the program, so OpenRC would send SIGHUP to the shell`,
      );
      await host.writeFile(SPEC, spec(...forms()));
      await plan(0);
    });

    it.each(SIGNALLED)("%s: a killed program is started again by supervise-daemon, exactly once", async (form) => {
      const name = fx(form);
      const [before] = (await settledLive(name))[name]!;
      await host.mustSh(`kill ${before}`);
      const after = await host.waitFor(async () => (await livePids(host, name)).find((pid) => pid !== before), { timeoutMs: 15_000, what: `${name} to be respawned` });
      expect((await settledLive(name))[name]).toEqual([after]);
      expect(await childPid(`tend-${name}`)).toBe(after);
    });

    it("a background pipeline whose shell was killed: the next apply ends what the shell left and starts it once", async () => {
      const name = bx("pipeline");
      const before = await settledLive(name);
      await host.mustSh(`kill ${await processOf(name)}`);
      expect(await plan(2)).toContain(`~ service:${name}  start`);
      await apply(forms());
      const after = await settledLive(name);
      for (const program of programs(name)) {
        expect(after[program]).toHaveLength(1);
        expect(after[program]).not.toEqual(before[program]);
      }
    });

    it("a changed definition restarts every form: the old processes gone, exactly one new each", async () => {
      const before = await settledLive(...NAMES);
      await apply(forms({ extra: "env:\n  CHANGED: one" }));
      const after = await settledLive(...NAMES);
      for (const program of NAMES.flatMap(programs)) expect(after[program]).not.toEqual(before[program]);
      expect(await host.mustSh(`tr '\\0' '\\n' < /proc/${await childPid(`tend-${fx("quotedArgs")}`)}/environ`)).toContain("CHANGED=one\n");
    });

    it("restartOn: a changed file restarts every form: the old processes gone, exactly one new each", async () => {
      const before = await settledLive(...NAMES);
      const output = await apply(forms({ extra: "env:\n  CHANGED: one", restart: "two" }));
      for (const name of NAMES) expect(output).toContain(`service:${name}: changed, restarted (file:fx-restart changed, restartOn matched)`);
      const after = await settledLive(...NAMES);
      for (const program of NAMES.flatMap(programs)) expect(after[program]).not.toEqual(before[program]);
    });

    it("reloadOn with reloadSignal HUP: the program itself gets the signal, same pid, started once, never restarted", async () => {
      const names = SIGNALLED.flatMap((form) => [fx(form), bx(form)]);
      const live = await settledLive(...names);
      const started = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await startedPids(host, name)] as const)));
      const output = await apply(forms({ extra: "env:\n  CHANGED: one", restart: "two", reload: "two" }));
      for (const name of names) {
        expect(output).toContain(`service:${name}: changed, reloaded (file:fx-reload changed, reloadOn matched)`);
        const [pid] = live[name]!;
        await host.waitFor(async () => (await hupsReceived(host, name)).includes(pid!), { timeoutMs: 10_000, what: `${name} (pid ${pid}) to log SIGHUP` });
      }
      const after = await settledLive(...names);
      for (const name of names) {
        expect(after[name]).toEqual(live[name]);
        expect(await startedPids(host, name)).toEqual(started[name]);
        expect(await hupsReceived(host, name)).toEqual(live[name]);
      }
    });

    it("desired stopped: no process of any form is left", async () => {
      await settledLive(...NAMES);
      await apply(forms({ extra: "env:\n  CHANGED: one\ndesired: {state: stopped, enabled: true}", restart: "two", reload: "two" }));
      await liveNone();
      for (const name of NAMES) expect(await status(`tend-${name}`)).toBe("stopped");
      await plan(0);
      await apply(forms({ extra: "env:\n  CHANGED: one", restart: "two", reload: "two" }));
      await settledLive(...NAMES);
    });

    it("removal: no process of any form is left, and no supervisor", async () => {
      await apply(BASE);
      await liveNone();
      expect(await host.mustSh("ps -eo args")).not.toMatch(/tend-[fb]x-|demo [fb]x-/);
      await plan(0);
    });
  });

  /** Debian's cron is a sysv script, which OpenRC runs but whose record only openrc-run keeps. */
  describe("batching: what grows with the wave is one rc-service per start, stop and restart", () => {
    /** The commands an apply of BASE and `docs` starts, each of the wave's scripts shown as "…". */
    const commands = async (docs: string[]) => {
      await host.writeFile(SPEC, spec(...BASE, ...docs));
      return commandsOfRun(host, ["apply", "-f", SPEC], /^tend-b\d+$/);
    };
    /**
     * `commands` split into the one rc-service each service needs for `action`, and the rest, where
     * the verification's repeated `rc-status` (as often as its settle window lasts) counts once and
     * `sync --file-system` is left out (it replaces the fsync of each file once a batch has many:
     * one per file system, not per service).
     */
    const split = (all: string[], action: string) => ({
      each: all.filter((c) => c === `rc-service -- … ${action}`).length,
      rest: withoutRepeats(all.filter((c) => c !== `rc-service -- … ${action}` && !c.startsWith("sync "))),
    });

    it.each([3, 20])("%i services: adding, changing and removing them start one rc-service each, and nothing else grows", async (n) => {
      // The lock's flock, one rc-status to observe, one rc-update -u for the scripts written, and the verification's rc-status.
      const rest = ["flock -n 3", "rc-status -C -s", "rc-update -u", "rc-status -C -s"];
      await apply(BASE);
      expect(split(await commands(serviceWave(n, 1)), "start")).toEqual({ each: n, rest });
      expect(split(await commands(serviceWave(n, 2)), "restart")).toEqual({ each: n, rest });
      // A removal has nothing to verify.
      expect(split(await commands([]), "stop")).toEqual({ each: n, rest: rest.slice(0, 3) });
      expect(await livePids(host, `b${n - 1}`)).toEqual([]);
    });
  });

  it("a seeded random walk of edits of three services converges at every step: the next plan is clean and the process table agrees", () => proveRandomWalk(host, SPEC, BASE, WALK.seed, WALK.steps, { byHand: BY_HAND }), WALK_TIMEOUT_MS);

  describe("a tend service in every state × enabled", () => {
    afterAll(() => apply(BASE));

    it.each(EVERY_DESIRED_STATE)("converges to %s, enabled %s: OpenRC, its runlevel link and the process table agree, and the next plan is clean", (state, enabled) =>
      convergeService(host, SPEC, BASE, "tour", [state, enabled], async () => {
        expect(await status("tend-tour")).toMatch(state === "running" ? /^started/ : /^stopped/);
        expect((await host.exec(["test", "-L", "/etc/runlevels/default/tend-tour"])).exitCode).toBe(enabled ? 0 : 1);
      }),
    );
  });

  describe("a distro service in every state × enabled (Debian's cron)", () => {
    const cron = (state: "running" | "stopped", enabled: boolean) => doc(`type: Service\nname: cron\ndesired: {state: ${state}, enabled: ${enabled}}`);
    const crons = async () => (await host.exec(["pgrep", "-x", "cron"])).stdout.split("\n").filter(Boolean);

    // Each of the twelve changes between them once, beginning and ending running and enabled, as Debian boots cron.
    it.each(everyDesiredStateFrom(["running", true]))("converges to %s, enabled %s: the init and the process table agree, and the next plan is clean", async (state, enabled) => {
      await apply([...BASE, cron(state, enabled)]);
      await plan(0);
      expect((await host.exec(["rc-service", "cron", "status"])).exitCode).toBe(state === "running" ? 0 : 3);
      expect(await status("cron")).toBe(state === "running" ? "started" : "stopped");
      expect(await crons()).toHaveLength(state === "running" ? 1 : 0);
      expect((await host.exec(["test", "-L", "/etc/runlevels/default/cron"])).exitCode).toBe(enabled ? 0 : 1);
    });
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

  it("fails plan for a timer once no cron daemon is installed (Debian's cron set aside)", async () => {
    await host.mustSh("rc-service cron stop >/dev/null 2>&1; mv /usr/sbin/cron /usr/sbin/cron.set-aside");
    try {
      await proveTimerNeedsCron(host, SPEC, BASE);
    } finally {
      await host.mustSh("mv /usr/sbin/cron.set-aside /usr/sbin/cron");
    }
  });

  it("verifies a service it started and one it restarted while the wall clock steps a year forward, then back (reliability #22)", () => proveVerifyAcrossClockStep(host, "/spec/clockstep.yaml", []), 120_000);
  it("restarts a service whose init runs an older definition than the file on disk, without rewriting it", () => proveOlderDefinitionRestart(host, "/spec/olddef.yaml", [], "/etc/init.d/tend-olddef"), 120_000);

  it("sets back in place a mode loosened by hand: the service's own file without a restart, a File it restarts on with one", () => proveModeDrift(host, "/spec/modes.yaml", [], "/etc/init.d/tend-modes"), 120_000);

  it("restarts a service whose program was replaced on disk, unless restartOnUpgrade is false", () => proveStaleBuildRestart(host, "/spec/stale.yaml", []), 120_000);

  it("keeps a restart that a later failure stopped in the ledger, and the next apply carries it out", () => proveRestartLedger(host, "/spec/ledger.yaml", []), 120_000);
  it("does not carry out a start the ledger kept once the spec wants the service stopped", () => proveLedgerYieldsToSpec(host, "/spec/ledger.yaml", []), 120_000);

  it("a definition deleted by hand while the service runs: apply writes it back and restarts the service", () => proveDeletedDefinition(host, "/spec/deldef.yaml", [], "/etc/init.d/tend-deldef"), 120_000);

  it("tells before a reboot which services would not come back, and the reboot proves it", () =>
    proveBootTruth(host, {
      specPath: "/spec/boot.yaml",
      base: [],
      offWhy: "it is in no runlevel (rc-update add it to default)",
      cases: [
        {
          // linked by hand into a runlevel boot never reaches
          name: "boot-elsewhere",
          doc: bootDisabledService("boot-elsewhere"),
          breakBoot: () => host.mustSh("mkdir -p /etc/runlevels/maint && rc-update add tend-boot-elsewhere maint"),
          why: "it is in the runlevel maint, which boot does not reach (it starts sysinit, boot, default)",
          planSays: "desired running but not enabled: it runs after this apply, but would not start after a reboot",
          restore: () => host.mustSh("rc-update del tend-boot-elsewhere maint && rmdir /etc/runlevels/maint"),
        },
      ],
    }), 240_000);

  it("leaves nothing in /var/lib/tend but the lock, the state and the backup of the script edited by hand", async () => {
    expect((await host.mustExec(["ls", "-A", "/var/lib/tend"])).split("\n").filter(Boolean)).toEqual(["backups", "lock", "state.json"]);
    // and the copies of the definitions the random walk's admin edited
    expect(await withoutWalkCopies(host, "/var/lib/tend/backups")).toEqual([expect.stringMatching(/^\.\/[^/]+\/file\/etc\/init\.d\/tend-web$/)]);
  });
});
