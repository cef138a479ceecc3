import { execFileSync } from "node:child_process";
import { startHost, type TestHost } from "@tend/testkit/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applySpec, planSpec } from "../support/apply-spec.js";
import { commandsOfRun } from "../support/commands-of-run.js";
import { proveTimerNeedsCron } from "../support/cron-missing.js";
import { proveCrossScopeAfterRefused } from "../support/cross-scope-after.js";
import { convergeDistro, convergeService, EVERY_DESIRED_STATE } from "../support/desired-states.js";
import { DEMO, demoLog, demoStarts } from "../support/demo-daemon.js";
import { EXEC_FORMS, formProcesses, hupsReceived, livePids, startedPids, type ExecForm } from "../support/exec-forms.js";
import { GREETING } from "../support/greeting.js";
import { GUARD, ONCE, WEB } from "../support/restart-policy-services.js";
import { bootUserService, proveBootTruth } from "../support/boot-truth.js";
import { proveModeDrift } from "../support/file-modes.js";
import { proveVerifyAcrossClockStep } from "../support/clock-step.js";
import { proveOlderDefinitionRestart } from "../support/older-definition.js";
import { killApplyWhen } from "../support/killing-stand-in.js";
import { proveLedgerYieldsToSpec } from "../support/ledger-yields.js";
import { proveRestartLedger } from "../support/restart-ledger.js";
import { proveStaleBuildRestart } from "../support/stale-build.js";
import { provePurePlans } from "../support/side-effects.js";
import { roundsRunning, serviceWave } from "../support/service-wave.js";
import { proveRandomWalk, WALK, WALK_TIMEOUT_MS, withoutWalkCopies, type WalkOptions } from "../support/random-walk.js";
import { proveDeletedDefinition } from "../support/deleted-definition.js";
import { doc, NOTHING, spec } from "../support/spec-documents.js";

/** What an admin does by hand in the random walk: edit or delete a service's definition, stop it, disable it. */
const BY_HAND: WalkOptions["byHand"] = { definition: (unit) => `/etc/sv/${unit}/run`, stop: (unit) => ["sv", "down", `/etc/sv/${unit}`], disable: (unit) => ["touch", `/etc/sv/${unit}/down`] };

/** The same in alice's scope. */
const BY_HAND_ALICE: WalkOptions["byHand"] = { definition: (unit) => `/home/alice/.local/service/${unit}/run`, stop: (unit) => ["sv", "down", `/home/alice/.local/service/${unit}`], disable: (unit) => ["touch", `/home/alice/.local/service/${unit}/down`], as: "alice" };

/**
 * Services on runit (Debian's runit, runsvdir as PID 1 over /etc/service), driven through the
 * tend CLI as an admin would: the service directories @tend/provider-runit writes, runsvdir
 * picking up their links, the restart policies of the seed's table when the process is killed,
 * `after`, user services through tend-runsvdir-<user>, distro service links, reloads, drift,
 * verification and removal; every form an `exec` is written in, counted in the process table;
 * and timers, which fail plan here: this image has /etc/cron.d but no cron daemon.
 */

const SPEC = "/spec/tend.yaml";
const ALICE_SPEC = "/spec/alice.yaml";

/** One DEMO service per restart policy: web always, guard on_failure, once no. */
const BASE = [WEB, GUARD, ONCE];

describe("services on runit (runsvdir as PID 1)", () => {
  let host: TestHost;

  beforeAll(async () => {
    host = await startHost("runit");
    await host.writeFile("/opt/demo/bin/demo", DEMO, { mode: 0o755 });
  });

  afterAll(async () => {
    await host?.stop();
  });

  const apply = (docs: string[], exitCode = 0) => applySpec(host, SPEC, docs, exitCode);
  const plan = (exitCode: number) => planSpec(host, SPEC, exitCode);
  const svStatus = async (dir: string) => (await host.exec(["sv", "status", dir])).stdout;
  /** The supervised pid when runsv runs the service (`run:` without `want down`), else "". */
  const runningPid = async (dir: string) => {
    const line = await svStatus(dir);
    return line.startsWith("run: ") && !line.split(";")[0]!.includes("want down") ? (/\(pid (\d+)\)/.exec(line)?.[1] ?? "") : "";
  };
  const pidOf = (name: string) => runningPid(`/etc/sv/tend-${name}`);
  const alive = async (pid: string) => pid !== "" && (await host.exec(["test", "-d", `/proc/${pid}`])).exitCode === 0;
  const missing = async (path: string) => (await host.exec(["test", "-e", path])).exitCode === 1 && (await host.exec(["test", "-L", path])).exitCode === 1;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("serves services with the runit provider", async () => {
    await host.writeFile(SPEC, spec(...BASE));
    expect(await host.expectTend(["providers", "-f", SPEC])).toMatch(/^\* @tend\/provider-runit@\S+\s+service on runit/m);
    expect(await host.expectTend(["plan", "-f", SPEC])).toMatch(/^host \S+ \(runit\)$/m);
  });

  it("adds services: directories written and linked, picked up by runsvdir, running, env byte for byte", async () => {
    const output = await apply(BASE);
    for (const name of ["web", "guard", "once"]) {
      expect(output).toContain(`service:${name}: verified`);
      expect(await host.mustSh(`stat -c '%a %U %G' /etc/sv/tend-${name}/run`)).toBe("755 root root\n");
      expect(await host.mustSh(`readlink /etc/runit/runsvdir/default/tend-${name}`)).toBe(`/etc/sv/tend-${name}\n`);
      expect(await svStatus(`/etc/service/tend-${name}`)).toMatch(new RegExp(`^run: /etc/service/tend-${name}: \\(pid \\d+\\) \\d+s; run: log: `));
    }
    const run = await host.readFile("/etc/sv/tend-web/run");
    expect(run.startsWith("#!/bin/sh\n# Managed by tend. Edits are overwritten on the next apply.\nexec 2>&1\n")).toBe(true);
    expect(run.endsWith("echo $$ > supervise/tend-group || exit 1\nexec chpst -P /opt/demo/bin/demo web\n")).toBe(true);
    expect(await host.readFile("/etc/sv/tend-once/finish")).toContain("exec sv down .\n");
    expect(await host.readFile("/etc/sv/tend-guard/finish")).toContain('[ "$1" = 0 ] && exec sv down .\n');
    expect(await host.readFile("/etc/sv/tend-web/finish")).not.toContain("sv down"); // it only ends what is left of the process group

    const pid = await pidOf("web");
    const environ = (await host.exec(["cat", `/proc/${pid}/environ`])).stdout.split("\0");
    expect(environ).toContain(`GREETING=${GREETING}`);
    expect(await demoStarts(host, "web")).toEqual([`start ${pid} ${GREETING}`]);
    expect((await host.exec(["test", "-e", "/tmp/pwned"])).exitCode).toBe(1);
    await host.waitFor(async () => (await host.exec(["cat", "/var/log/tend-web/current"])).stdout.includes("demo web started as root"), {
      timeoutMs: 10_000,
      what: "svlogd to keep the service's output",
    });
  });

  it("plans nothing on a second run", async () => {
    expect(await plan(0)).toContain("0 to add, 0 to change, 0 to remove");
    const observed = await host.expectTend(["observe", "-f", SPEC, "service:web", "--json"]);
    expect(JSON.parse(observed).result.resources).toMatchObject([{ key: "service:web", exists: true, state: "running", enabled: true }]);
  });

  it('restart = "always": runsv runs a killed process again', async () => {
    const before = await pidOf("web");
    await host.mustSh(`kill -9 ${before}`);
    const after = await host.waitFor(async () => {
      const pid = await pidOf("web");
      return pid !== "" && pid !== before ? pid : undefined;
    }, { timeoutMs: 15_000, what: "runsv to run tend-web again" });
    expect((await demoStarts(host, "web")).at(-1)).toBe(`start ${after} ${GREETING}`);
    await plan(0);
  });

  it('restart = "on_failure": restarted after a crash, stopped after a clean exit', async () => {
    const first = await pidOf("guard");
    await host.mustSh(`kill -9 ${first}`);
    const second = await host.waitFor(async () => {
      const pid = await pidOf("guard");
      return pid !== "" && pid !== first ? pid : undefined;
    }, { timeoutMs: 15_000, what: "runsv to restart tend-guard after a crash" });

    await host.mustSh(`kill -USR1 ${second}`);
    await host.waitFor(async () => (await demoLog(host, "guard")).includes(`usr1 ${second}`), { timeoutMs: 10_000, what: "tend-guard to exit 0" });
    await host.waitFor(async () => (await svStatus("/etc/sv/tend-guard")).startsWith("down: "), { timeoutMs: 10_000, what: "tend-guard to be down" });
    await pause(3_000);
    expect(await demoStarts(host, "guard")).toHaveLength(2);
    expect(await svStatus("/etc/sv/tend-guard")).toMatch(/^down: \/etc\/sv\/tend-guard: \d+s, normally up; run: log: /);
  });

  it('restart = "no": a killed process stays dead, and the next apply starts it again', async () => {
    const pid = await pidOf("once");
    await host.mustSh(`kill ${pid}`);
    await host.waitFor(async () => !(await alive(pid)), { timeoutMs: 10_000, what: "tend-once to exit" });
    await pause(3_000);
    expect(await demoStarts(host, "once")).toHaveLength(1);
    expect(await svStatus("/etc/sv/tend-once")).toMatch(/^down: /);
    const planned = await plan(2);
    expect(planned).toMatch(/~ service:once {2}start\n\s+reason {2}stopped, want running/);
    expect(planned).toMatch(/~ service:guard {2}start\n\s+reason {2}stopped, want running/);
    await apply(BASE);
    expect(await demoStarts(host, "once")).toHaveLength(2);
    expect(await demoStarts(host, "guard")).toHaveLength(3);
    expect(await alive(await pidOf("once"))).toBe(true);
    await plan(0);
  });

  it('a change restarts even a restart = "no" service (sv restart would leave it down)', async () => {
    const before = await pidOf("once");
    const output = await apply([WEB, GUARD, ONCE.replace("exec: /opt/demo/bin/demo once", "exec: /opt/demo/bin/demo once\nenv:\n  GREETING: changed")]);
    expect(output).toMatch(/service:once: changed, restarted/);
    expect(output).toContain("service:once: verified");
    const after = await pidOf("once");
    expect(after).not.toBe(before);
    expect((await demoStarts(host, "once")).at(-1)).toBe(`start ${after} changed`);
    await apply(BASE);
  });

  it("fails verification for a program that dies right after starting, with its log lines", async () => {
    const flaky = doc("type: Service\nname: flaky\nexec: /opt/demo/bin/demo flaky 1\nrestart: always");
    const output = await apply([...BASE, flaky], 1);
    expect(output).toMatch(/service:flaky did not verify/);
    expect(output).toContain("demo flaky gives up");
    await apply(BASE);
    expect(await missing("/etc/sv/tend-flaky")).toBe(true);
  });

  describe("after", () => {
    const DB = doc("type: Service\nname: db\nexec: /opt/demo/bin/demo db\nrestart: always");
    const API = doc("type: Service\nname: api\nexec: /opt/demo/bin/demo api\nrestart: always\nafter: [network, db]");

    it("run waits until the service it runs after is up", async () => {
      await apply([...BASE, DB, API]);
      expect(await host.readFile("/etc/sv/tend-api/run")).toContain(
        "case $(sv status /etc/sv/tend-db) in run:*) ;; *) exit 1 ;; esac\nsv check /etc/sv/tend-db >/dev/null || exit 1\necho $$ > supervise/tend-group || exit 1\nexec chpst -P /opt/demo/bin/demo api\n",
      );
      expect(await demoStarts(host, "api")).toHaveLength(1);

      await host.mustSh("sv down /etc/sv/tend-db");
      await host.waitFor(async () => (await svStatus("/etc/sv/tend-db")).startsWith("down: "), { timeoutMs: 10_000, what: "tend-db to stop" });
      await host.mustSh(`kill ${await pidOf("api")}`);
      await pause(4_000);
      expect(await demoStarts(host, "api")).toHaveLength(1); // ./run keeps exiting before exec while db is down
      // runsv starts ./run again each second, so `sv status` may catch it for a moment: no api program runs.
      expect((await host.exec(["pgrep", "-f", "[d]emo api"])).exitCode).toBe(1); // [d]: not the exec wrapper that holds this pattern

      await host.mustSh("sv up /etc/sv/tend-db");
      await host.waitFor(async () => (await demoStarts(host, "api")).length === 2, { timeoutMs: 15_000, what: "tend-api to start once tend-db runs" });
      const [db] = await demoStarts(host, "db").then((lines) => lines.slice(-1));
      expect(db).toMatch(/^start \d+/);
      expect(await alive(await pidOf("api"))).toBe(true);
      await plan(0);
    });

    it("a user service after a system service fails plan: no init orders services across scopes", () =>
      proveCrossScopeAfterRefused(host, SPEC, spec, [...BASE, DB], "db", "/home/alice/.local/service/tend-mine"));

    it("a systemd target in after fails plan with the seed's text", async () => {
      await host.writeFile(SPEC, spec(...BASE, doc("type: Service\nname: bar\nexec: /opt/demo/bin/demo bar\nafter: [graphical.target]")));
      expect(await host.expectTend(["plan", "-f", SPEC], { exitCode: 1 })).toContain("service:bar orders itself after `graphical.target`, a systemd target, and this host uses runit");
      await apply(BASE);
      expect(await missing("/etc/sv/tend-api")).toBe(true);
    });
  });

  describe("desired state and enabled", () => {
    const OFF = doc("type: Service\nname: off\nexec: /opt/demo/bin/demo off\nrestart: always\ndesired: {state: running, enabled: false}");
    const IDLE = doc("type: Service\nname: idle\nexec: /opt/demo/bin/demo idle\nrestart: always\ndesired: {state: stopped, enabled: true}");

    it("running but not at boot: a down file, supervised and up; stopped but at boot: never ran", async () => {
      const output = await apply([...BASE, OFF, IDLE]);
      expect(output).toContain("service:off: verified");
      expect(await host.readFile("/etc/sv/tend-off/down")).toContain("desired.enabled is false");
      expect(await svStatus("/etc/sv/tend-off")).toMatch(/^run: \/etc\/sv\/tend-off: \(pid \d+\) \d+s, normally down; run: log: /);
      expect(await missing("/etc/sv/tend-idle/down")).toBe(true);
      expect(await svStatus("/etc/sv/tend-idle")).toMatch(/^down: \/etc\/sv\/tend-idle: \d+s, normally up; run: log: /);
      expect(await missing("/var/tmp/demo-idle")).toBe(true); // not even once
      const observed = JSON.parse(await host.expectTend(["observe", "-f", SPEC, "service:off", "service:idle", "--json"])).result.resources;
      expect(observed).toMatchObject([
        { key: "service:off", state: "running", enabled: false },
        { key: "service:idle", state: "stopped", enabled: true },
      ]);
      await plan(0);
    });

    it("flips enabled by the down file alone", async () => {
      await apply([...BASE, OFF.replace("enabled: false", "enabled: true"), IDLE]);
      expect(await missing("/etc/sv/tend-off/down")).toBe(true);
      expect(JSON.parse(await host.expectTend(["observe", "-f", SPEC, "service:off", "--json"])).result.resources).toMatchObject([{ state: "running", enabled: true }]);
      await plan(0);
      await apply(BASE);
      expect(await missing("/etc/sv/tend-off")).toBe(true);
      expect(await missing("/etc/sv/tend-idle")).toBe(true);
    });
  });

  it("an apply killed while a service it adds stopped is held by a transient down file: the next apply that wants it disabled takes that file as tend's", async () => {
    const HELD = doc("type: Service\nname: held\nexec: /opt/demo/bin/demo held\nrestart: always\ndesired: {state: stopped, enabled: true}");
    // Kills the apply once the transient down file is there: while it waits for runsvdir's next scan (every 5 s) to pick the service up.
    await killApplyWhen(host, "[ -e /etc/sv/tend-held/down ]");
    await host.writeFile(SPEC, spec(...BASE, HELD));
    const killed = await host.tend(["apply", "-f", SPEC]);
    expect(killed.exitCode, killed.stdout + killed.stderr).toBe(137);
    expect(await host.readFile("/etc/sv/tend-held/down")).toContain("Written by tend while it adds this service stopped");
    const output = await apply([...BASE, HELD.replace("enabled: true", "enabled: false")]);
    expect(output).not.toContain("conflict");
    expect(await host.readFile("/etc/sv/tend-held/down")).toContain("desired.enabled is false");
    expect(await missing("/var/tmp/demo-held")).toBe(true); // not even once
    await plan(0);
    await apply(BASE);
    expect(await missing("/etc/sv/tend-held")).toBe(true);
  });

  it("a service an apply linked just before it was killed, now wanted stopped: held by a transient down file until runsv has it, so it never runs", async () => {
    const LATE = doc("type: Service\nname: late\nexec: /opt/demo/bin/demo late\nrestart: always");
    // runsvdir (PID 1 here) stopped from outside, so that no scan picks the link up until the test says.
    const runsvdir = execFileSync("docker", ["inspect", "--format", "{{.State.Pid}}", host.id], { encoding: "utf8" }).trim();
    process.kill(Number(runsvdir), "SIGSTOP");
    try {
      // Kills the apply that adds it once its link, the last thing it writes, is there.
      await killApplyWhen(host, "[ -L /etc/runit/runsvdir/default/tend-late ]");
      await host.writeFile(SPEC, spec(...BASE, LATE));
      const killed = await host.tend(["apply", "-f", SPEC]);
      expect(killed.exitCode, killed.stdout + killed.stderr).toBe(137);
      await host.writeFile(SPEC, spec(...BASE, `${LATE}desired: {state: stopped, enabled: true}\n`));
      const applying = host.tend(["apply", "-f", SPEC]);
      // runsvdir scans again only once the apply holds the service (or after 3 s: an apply that does not).
      for (let i = 0; i < 30 && (await missing("/etc/sv/tend-late/down")); i += 1) await pause(100);
      process.kill(Number(runsvdir), "SIGCONT");
      const applied = await applying;
      expect(applied.exitCode, applied.stdout + applied.stderr).toBe(0);
    } finally {
      process.kill(Number(runsvdir), "SIGCONT");
    }
    await pause(6_000); // past runsvdir's next scan
    expect(await missing("/var/tmp/demo-late")).toBe(true); // never ran
    expect(await missing("/etc/sv/tend-late/down")).toBe(true);
    await plan(0);
    await apply(BASE);
  });

  describe("read-only commands change nothing (G2)", () => {
    const conf = (content: string) => doc(`type: File\nname: pure-conf\npath: /etc/pure/pure.conf\ncontent: "${content}\\n"`);
    const PURE = doc('type: Service\nname: pure\nexec: /opt/demo/bin/demo pure\nrestart: always\nreloadSignal: HUP\nreloadOn: ["File[pure-conf]"]\nenv: {API_TOKEN: abcd1234}');
    const PURE_SPEC = "/spec/pure.yaml";
    const CHANGED_SPEC = "/spec/pure-changed.yaml";
    /** runsv's FIFO, which `sv` too opens for writing, writing nothing, to learn whether runsv runs. */
    const OK_FIFO = /\/supervise\/ok$/;

    it("plan, plan --diff and observe start no program and change no file, converged or not; the same spy sees all that apply does", async () => {
      // runsv's status files answer for every service: no `sv` runs (no queries)
      const changedText = spec(...BASE, conf("a = 2"), PURE.replace("abcd1234", "efgh5678"));
      const applied = await provePurePlans(host, { spec: PURE_SPEC, docs: [...BASE, conf("a = 1"), PURE], changed: CHANGED_SPEC, changedText, probes: [OK_FIFO] });
      // Its env holds a token: the run script runsv ran is root's to read alone.
      expect(await host.mustExec(["stat", "-c", "%a", "/etc/sv/tend-pure/run"])).toBe("700\n");
      expect(applied.changes.filter((call) => call.includes("/etc/pure/")).length).toBeGreaterThan(0);
      expect(applied.changes.filter((call) => call.includes("/etc/sv/tend-pure/")).length).toBeGreaterThan(0);
      await applySpec(host, PURE_SPEC, BASE);
    });
  });

  describe("user services", () => {
    const SYNC = doc("type: Service\nname: sync\nuser: true\nexec: /opt/demo/bin/demo sync\nrestart: always");
    const dir = "/home/alice/.local/service/tend-sync";

    it("need root while tend-runsvdir-alice does not exist", async () => {
      await host.writeFile(ALICE_SPEC, spec(SYNC), { mode: 0o644 });
      const output = await host.expectTend(["plan", "-f", ALICE_SPEC, "--user"], { exitCode: 1, user: "alice" });
      expect(output).toContain("runit runs the user services of alice through the system service /etc/sv/tend-runsvdir-alice, which is missing or out of date, and only root can write it");
      expect(await missing("/etc/sv/tend-runsvdir-alice")).toBe(true);
    });

    it("run as the user under tend-runsvdir-alice, which the first one creates", async () => {
      const output = await host.expectTend(["apply", "-f", ALICE_SPEC, "--user", "alice"]);
      expect(output).toContain("service:sync: verified");
      expect(await host.mustSh("stat -c '%U %a' /etc/sv/tend-runsvdir-alice/run")).toBe("root 755\n");
      expect(await host.mustSh("readlink /etc/runit/runsvdir/default/tend-runsvdir-alice")).toBe("/etc/sv/tend-runsvdir-alice\n");
      expect(await host.mustSh(`stat -c '%U' ${dir} ${dir}/run ${dir}/supervise`)).toBe("alice\nalice\nalice\n");
      const pid = await runningPid(dir);
      expect(await host.mustSh(`ps -o user= -p ${pid}`)).toBe("alice\n");
      expect(await host.mustSh(`ps -o user=,args= -p $(cat /etc/sv/tend-runsvdir-alice/supervise/pid)`)).toMatch(/^alice +runsvdir \/home\/alice\/\.local\/service\n$/);
      await host.waitFor(async () => (await host.exec(["cat", "/home/alice/.local/state/tend/log/tend-sync/current"])).stdout.includes("demo sync started as alice"), {
        timeoutMs: 10_000,
        what: "svlogd to keep alice's service output",
      });
      expect(await host.expectTend(["plan", "-f", ALICE_SPEC, "--user", "alice", "--detailed-exitcode"])).toContain("0 to add, 0 to change, 0 to remove");
    });

    it("once it exists, alice applies her own services without root", async () => {
      const before = await runningPid(dir);
      await host.writeFile(ALICE_SPEC, spec(SYNC.replace("restart: always", "restart: always\nenv:\n  GREETING: mine")), { mode: 0o644 });
      const output = await host.expectTend(["apply", "-f", ALICE_SPEC, "--user"], { user: "alice" });
      expect(output).toContain("service:sync: verified");
      const after = await runningPid(dir);
      expect(after).not.toBe(before);
      expect((await demoStarts(host, "sync")).at(-1)).toBe(`start ${after} mine`);
    });

    it("removing the last one keeps tend-runsvdir-alice", async () => {
      const pid = await runningPid(dir);
      await host.writeFile(ALICE_SPEC, NOTHING, { mode: 0o644 });
      await host.expectTend(["apply", "-f", ALICE_SPEC, "--user", "alice"]);
      await host.waitFor(async () => !(await alive(pid)), { timeoutMs: 10_000, what: "alice's service to stop" });
      expect(await missing(dir)).toBe(true);
      expect(await runningPid("/etc/sv/tend-runsvdir-alice")).not.toBe("");
      expect(await host.mustSh("readlink /etc/runit/runsvdir/default/tend-runsvdir-alice")).toBe("/etc/sv/tend-runsvdir-alice\n");
    });
  });

  describe("batching: the same commands for 3 services as for 60", () => {
    /**
     * The commands an apply of BASE and `docs` starts, the wave's directories shown as one "…".
     * Left out: `sync --file-system`, which replaces the fsync of each file once a batch has many
     * (one per file system a batch writes to, not per service).
     */
    const commands = async (docs: string[]) => {
      await host.writeFile(SPEC, spec(...BASE, ...docs));
      return (await commandsOfRun(host, ["apply", "-f", SPEC], /^\/etc\/sv\/tend-b\d+$/)).filter((command) => !command.startsWith("sync "));
    };

    it.each([3, 60])("%i services: adding, changing and removing them start the same commands, whatever their number", async (n) => {
      // runsvdir picks the links up; tend reads supervise/status and writes supervise/control itself: the lock's flock alone.
      expect(await commands(serviceWave(n, 1))).toEqual(["flock -n 3"]);
      expect(await livePids(host, "b0")).toHaveLength(1);
      expect(await commands(serviceWave(n, 2))).toEqual(["flock -n 3"]);
      expect(await roundsRunning(host, `b${n - 1}`)).toEqual(["2"]);
      expect(await commands([])).toEqual(["flock -n 3", "sv -v -w 15 down …", "sv -v -w 10 exit …"]);
      expect(await livePids(host, `b${n - 1}`)).toEqual([]);
    });
  });

  describe("distro services", () => {
    const DISTRO = doc("type: Service\nname: demo-distro");
    const SHIPPED = "#!/bin/sh\nexec /opt/demo/bin/demo demo-distro\n";

    it("links /etc/sv/<name> into the runsvdir, and fails plan for a missing one", async () => {
      await host.writeFile("/etc/sv/demo-distro/run", SHIPPED, { mode: 0o755 });
      const output = await apply([...BASE, DISTRO]);
      expect(output).toContain("service:demo-distro: linked /etc/runit/runsvdir/default/demo-distro -> /etc/sv/demo-distro");
      expect(await host.mustSh("readlink /etc/runit/runsvdir/default/demo-distro")).toBe("/etc/sv/demo-distro\n");
      // On runit a link is supervision: runsvdir starts it at its next scan.
      await host.waitFor(async () => (await runningPid("/etc/sv/demo-distro")) !== "", { timeoutMs: 15_000, what: "runsvdir to start demo-distro" });
      await plan(0);

      await host.writeFile(SPEC, spec(...BASE, DISTRO, doc("type: Service\nname: gdm")));
      expect(await host.expectTend(["plan", "-f", SPEC], { exitCode: 1 })).toContain("service:gdm has no exec, but /etc/sv/gdm does not exist; install the package that ships it");
    });

    it("removal removes the link and leaves /etc/sv/<name> alone", async () => {
      const pid = await runningPid("/etc/sv/demo-distro");
      await apply(BASE);
      expect(await missing("/etc/runit/runsvdir/default/demo-distro")).toBe(true);
      expect(await host.readFile("/etc/sv/demo-distro/run")).toBe(SHIPPED);
      await host.waitFor(async () => !(await alive(pid)), { timeoutMs: 15_000, what: "runsvdir to stop the unlinked demo-distro" });
    });

    // runit supervises a distro service only while it is linked, so it cannot run disabled (plan refuses that).
    it.each(EVERY_DESIRED_STATE.filter(([state, enabled]) => enabled || state === "stopped"))(
      "converges to %s, enabled %s: runsv, the link and the process table agree, and the next plan is clean",
      async (state, enabled) => {
        await host.writeFile("/etc/sv/demo-distro/run", SHIPPED, { mode: 0o755 });
        await convergeDistro(host, SPEC, BASE, "demo-distro", [state, enabled], async () => {
          expect((await host.exec(["test", "-L", "/etc/runit/runsvdir/default/demo-distro"])).exitCode).toBe(enabled ? 0 : 1);
          if (enabled) expect(await svStatus("/etc/sv/demo-distro")).toMatch(state === "running" ? /^run: / : /^down: /);
          // The package's directory is the package's: tend never writes a down file or anything else there.
          expect((await host.mustSh("ls /etc/sv/demo-distro")).split("\n").filter((entry) => entry && entry !== "supervise")).toEqual(["run"]);
        });
      },
    );

    // Linking is supervision: runsvdir's next scan starts a runsv, which starts the package's service.
    it("enabling a distro service wanted stopped links it, and it stays stopped once runsvdir picked it up", async () => {
      await host.writeFile("/etc/sv/demo-distro/run", SHIPPED, { mode: 0o755 });
      await apply([...BASE, doc("type: Service\nname: demo-distro\ndesired: {state: stopped, enabled: false}")]);
      await host.waitFor(async () => (await livePids(host, "demo-distro")).length === 0, { timeoutMs: 15_000, what: "demo-distro to be stopped" });
      await apply([...BASE, doc("type: Service\nname: demo-distro\ndesired: {state: stopped, enabled: true}")]);
      expect(await host.mustSh("readlink /etc/runit/runsvdir/default/demo-distro")).toBe("/etc/sv/demo-distro\n");
      await host.waitFor(async () => (await svStatus("/etc/sv/demo-distro")).startsWith("down: "), { timeoutMs: 15_000, what: "runsv to supervise demo-distro" });
      await pause(1_500);
      expect(await livePids(host, "demo-distro")).toEqual([]);
      await plan(0);
    });

    // The core unlinks it before the stop; runsvdir's scan can fall in between and end its runsv first.
    it("stop and disable of a distro service whose runsv runsvdir ends before the stop: the stop is done, not a failure", async () => {
      await host.writeFile("/etc/sv/demo-distro/run", SHIPPED, { mode: 0o755 });
      await apply([...BASE, doc("type: Service\nname: demo-distro\ndesired: {state: running, enabled: true}")]);
      expect(await livePids(host, "demo-distro")).toHaveLength(1);
      // An sv that, asked to stop, first waits for that runsv to be gone: the scan always wins.
      const waits = "for i in $(seq 150); do pgrep -x -f 'runsv demo-distro' >/dev/null || { touch /run/runsv-was-gone; break; }; sleep 0.1; done";
      await host.writeFile("/usr/local/sbin/sv", `#!/bin/sh\nif [ "$1" = stop ]; then ${waits}; fi\nexec /usr/bin/sv "$@"\n`, { mode: 0o755 });
      try {
        await apply([...BASE, doc("type: Service\nname: demo-distro\ndesired: {state: stopped, enabled: false}")]);
      } finally {
        await host.mustSh("rm -f /usr/local/sbin/sv");
      }
      expect((await host.exec(["test", "-e", "/run/runsv-was-gone"])).exitCode).toBe(0);
      expect(await livePids(host, "demo-distro")).toEqual([]);
      expect(await missing("/etc/runit/runsvdir/default/demo-distro")).toBe(true);
      await plan(0);
    });

    it("refuses a distro service running but disabled at plan: runsv supervises only what is linked", async () => {
      await host.writeFile(SPEC, spec(...BASE, doc("type: Service\nname: demo-distro\ndesired: {state: running, enabled: false}")));
      expect(await host.expectTend(["plan", "-f", SPEC], { exitCode: 1 })).toContain("cannot run without being enabled");
    });
  });

  it("a seeded random walk of edits of three services converges at every step: the next plan is clean and the process table agrees", () => proveRandomWalk(host, SPEC, BASE, WALK.seed, WALK.steps, { byHand: BY_HAND }), WALK_TIMEOUT_MS);

  describe("a tend service in every state × enabled", () => {
    afterAll(() => apply(BASE));

    it.each(EVERY_DESIRED_STATE)("converges to %s, enabled %s: runsv, the down file and the process table agree, and the next plan is clean", (state, enabled) =>
      convergeService(host, SPEC, BASE, "tour", [state, enabled], async () => {
        expect(await svStatus("/etc/sv/tend-tour")).toMatch(state === "running" ? /^run: / : /^down: /);
        expect((await host.exec(["test", "-e", "/etc/sv/tend-tour/down"])).exitCode).toBe(enabled ? 1 : 0);
      }),
    );
  });

  describe("reloadOn", () => {
    const conf = (content: string) => doc(`type: File\nname: conf\npath: /etc/demo.conf\ncontent: "${content}\\n"`);
    const APP = doc('type: Service\nname: app\nexec: /opt/demo/bin/demo app\nrestart: always\nreloadSignal: HUP\nreloadOn: ["file:conf"]');

    it("delivers reloadSignal with sv, in place", async () => {
      await apply([...BASE, conf("one"), APP]);
      const pid = await pidOf("app");
      const output = await apply([...BASE, conf("two"), APP]);
      expect(output).toContain("service:app: changed, reloaded (file:conf changed, reloadOn matched)");
      await host.waitFor(async () => (await demoLog(host, "app")).includes(`hup ${pid}`), { timeoutMs: 10_000, what: "tend-app to get SIGHUP" });
      expect(await demoStarts(host, "app")).toHaveLength(1);
      expect(await pidOf("app")).toBe(pid);
    });

    it("fails plan for a service without reloadSignal, never restarting it instead", async () => {
      const plain = doc('type: Service\nname: plain\nexec: /opt/demo/bin/demo plain\nreloadOn: ["file:conf"]');
      await host.writeFile(SPEC, spec(...BASE, conf("three"), plain));
      expect(await host.expectTend(["plan", "-f", SPEC], { exitCode: 1 })).toContain("service:plain lists resources in reloadOn, but it cannot reload on runit");
      await apply(BASE);
    });
  });

  it("fails plan with the seed's errors for the systemd and launchd escape hatches", async () => {
    await host.writeFile(SPEC, spec(...BASE, doc("type: Service\nname: capped\nexec: /opt/demo/bin/demo capped\nsystemd:\n  MemoryMax: 512M")));
    expect(await host.expectTend(["plan", "-f", SPEC], { exitCode: 1 })).toContain("service:capped sets `systemd` (MemoryMax), which only systemd supports, and this host uses runit");
    await host.writeFile(SPEC, spec(...BASE, doc("type: Service\nname: agent\nexec: /opt/demo/bin/demo agent\nlaunchd:\n  ProcessType: Background")));
    expect(await host.expectTend(["plan", "-f", SPEC], { exitCode: 1 })).toContain("service:agent sets `launchd` (ProcessType), which only launchd supports, and this host uses runit");
    expect(await missing("/etc/sv/tend-capped")).toBe(true);
  });

  it("reports an edited run script as drift and restores it, restarting the service", async () => {
    await host.writeFile(SPEC, spec(...BASE));
    const original = await host.readFile("/etc/sv/tend-web/run");
    const before = await pidOf("web");
    await host.writeFile("/etc/sv/tend-web/run", original.replace("exec 2>&1\n", "exec 2>&1\nexport GREETING=edited\n"), { mode: 0o755 });
    expect(await plan(2)).toContain("! service:web drifted: /etc/sv/tend-web/run was edited");
    await host.expectTend(["apply", "-f", SPEC]);
    expect(await host.readFile("/etc/sv/tend-web/run")).toBe(original);
    const after = await pidOf("web");
    expect(after).not.toBe(before);
    expect((await demoStarts(host, "web")).at(-1)).toBe(`start ${after} ${GREETING}`);
    await plan(0);
  });

  describe("exec forms: runsv supervises and signals the program itself, and nothing of it outlives a stop", () => {
    const FORMS = Object.keys(EXEC_FORMS) as ExecForm[];
    const nameOf = (form: ExecForm) => `form-${form.toLowerCase()}`;
    const TRIGGER = (content: string) => doc(`type: File\nname: trigger\npath: /etc/demo-trigger\ncontent: "${content}\\n"`);
    const CONF = (content: string) => doc(`type: File\nname: conf\npath: /etc/demo-conf\ncontent: "${content}\\n"`);
    /** One service per form; all but the pipeline reload on HUP (plan refuses that for a pipeline, below). */
    const formService = (form: ExecForm, extra = "") => {
      const reload = form === "pipeline" ? "" : '\nreloadSignal: HUP\nreloadOn: ["file:conf"]';
      return doc(`type: Service\nname: ${nameOf(form)}\nexec: ${JSON.stringify(EXEC_FORMS[form](nameOf(form)))}\nrestart: always\nrestartOn: ["file:trigger"]${reload}${extra}`);
    };
    const formSpec = (options: { trigger?: string; conf?: string; extra?: string } = {}) => [
      ...BASE,
      TRIGGER(options.trigger ?? "one"),
      CONF(options.conf ?? "one"),
      ...FORMS.map((form) => formService(form, options.extra)),
    ];
    const { sides, liveOf, snapshot, oneEach, expectOnlyNew } = formProcesses({ host: () => host, forms: FORMS, nameOf, supervisedPid: (form) => pidOf(nameOf(form)), pipelineShares: "process group" });
    let pids = new Map<ExecForm, string>();

    it("adds each form: the supervised pid is the program (for a pipeline, the leader of its process group)", async () => {
      const output = await apply(formSpec());
      for (const form of FORMS) expect(output).toContain(`service:${nameOf(form)}: verified`);
      pids = await oneEach();
      await expectOnlyNew(pids, new Map(FORMS.map((form) => [form, []])));
      const quoted = pids.get("quotedArgs")!;
      expect((await host.mustSh(`tr '\\0' '\\n' < /proc/${quoted}/cmdline`)).split("\n")).toEqual(["/bin/sh", "/opt/demo/bin/demo", "form-quotedargs", "", "daemon off;", ""]);
      expect(await host.mustSh(`ps -o args= -p ${pids.get("pipeline")}`)).toBe(`/bin/sh -c ${EXEC_FORMS.pipeline("form-pipeline")}\n`);
      expect(await host.mustSh(`ps -o args= -p ${pids.get("shellThenExec")}`)).toBe("/bin/sh /opt/demo/bin/demo form-shellthenexec\n");
      await plan(0);
    });

    it("kill: runsv starts the program again, and nothing of the old one lives on", async () => {
      const old = await snapshot();
      for (const form of FORMS) await host.mustSh(`kill -9 ${pids.get(form)}`);
      const next = await oneEach(pids);
      await host.waitFor(async () => (await Promise.all(FORMS.map(liveOf))).every((live, i) => live.length === sides(FORMS[i]!).length), {
        timeoutMs: 10_000,
        what: "the killed forms' other processes to end",
      });
      await expectOnlyNew(next, old);
      pids = next;
    });

    it("restart on change: the old program is gone, exactly one new one runs", async () => {
      const old = await snapshot();
      const output = await apply(formSpec({ extra: "\nenv:\n  GREETING: changed" }));
      for (const form of FORMS) expect(output).toContain(`service:${nameOf(form)}: changed, restarted`);
      const next = await oneEach(pids);
      await expectOnlyNew(next, old);
      for (const form of FORMS.filter((f) => f !== "shellLoop")) expect((await demoStarts(host, nameOf(form))).at(-1)).toBe(`start ${(await livePids(host, nameOf(form)))[0]} changed`);
      pids = next;
    });

    it("restartOn: a changed file restarts every form, exactly one new process each", async () => {
      const old = await snapshot();
      const output = await apply(formSpec({ extra: "\nenv:\n  GREETING: changed", trigger: "two" }));
      for (const form of FORMS) expect(output).toContain(`service:${nameOf(form)}: changed, restarted (file:trigger changed, restartOn matched)`);
      const next = await oneEach(pids);
      await expectOnlyNew(next, old);
      pids = next;
    });

    it("reloadOn with reloadSignal HUP: the program itself gets HUP, same pid, started once", async () => {
      const starts = new Map(await Promise.all(FORMS.map(async (form) => [form, (await startedPids(host, nameOf(form))).length] as const)));
      const output = await apply(formSpec({ extra: "\nenv:\n  GREETING: changed", trigger: "two", conf: "two" }));
      for (const form of FORMS.filter((f) => f !== "pipeline")) {
        expect(output).toContain(`service:${nameOf(form)}: changed, reloaded (file:conf changed, reloadOn matched)`);
        const pid = pids.get(form)!;
        await host.waitFor(async () => (await hupsReceived(host, nameOf(form))).includes(pid), { timeoutMs: 10_000, what: `${nameOf(form)} to log its HUP` });
        expect(await hupsReceived(host, nameOf(form))).toEqual([pid]);
        expect(await pidOf(nameOf(form))).toBe(pid);
        expect(await livePids(host, nameOf(form))).toEqual([pid]);
        expect(await startedPids(host, nameOf(form))).toHaveLength(starts.get(form)!);
      }
      expect(output).not.toContain("service:form-pipeline: changed");
    });

    it("a pipeline cannot reload in place: reloadSignal on it fails plan, naming the field", async () => {
      const pipelineReloads = doc(`type: Service\nname: piped\nexec: ${JSON.stringify(EXEC_FORMS.pipeline("piped"))}\nreloadSignal: HUP\nreloadOn: ["file:conf"]`);
      await host.writeFile(SPEC, spec(...formSpec({ extra: "\nenv:\n  GREETING: changed", trigger: "two", conf: "two" }), pipelineReloads));
      const output = await host.expectTend(["plan", "-f", SPEC], { exitCode: 1 });
      expect(output).toContain("error TEND_INVALID_FIELD: service:piped has an invalid `reloadSignal`: `exec` is shell syntax that runs as `/bin/sh -c` without handing over to its last command");
      expect(output).toMatch(/at .*service:piped, field reloadSignal/);
      expect(await missing("/etc/sv/tend-piped")).toBe(true);
    });

    it("desired stopped: no process of any form runs", async () => {
      await apply(formSpec({ extra: "\nenv:\n  GREETING: changed\ndesired: {state: stopped, enabled: true}", trigger: "two", conf: "two" }));
      for (const form of FORMS) {
        expect(await liveOf(form), nameOf(form)).toEqual([]);
        expect(await svStatus(`/etc/sv/tend-${nameOf(form)}`)).toMatch(/^down: /);
      }
      await apply(formSpec({ extra: "\nenv:\n  GREETING: changed", trigger: "two", conf: "two" }));
      pids = await oneEach();
    });

    it("removal: no process of any form runs once apply returns", async () => {
      const old = await snapshot();
      expect([...old.values()].flat()).toHaveLength(FORMS.length + 1);
      await apply(BASE);
      for (const form of FORMS) {
        expect(await liveOf(form), nameOf(form)).toEqual([]);
        expect(await missing(`/etc/sv/tend-${nameOf(form)}`)).toBe(true);
      }
    });

    it('restart = "no": the pipeline\'s shell killed, its whole group ends and stays down', async () => {
      const lone = doc(`type: Service\nname: lone\nexec: ${JSON.stringify(EXEC_FORMS.pipeline("lone"))}`);
      await apply([...BASE, lone]);
      const leader = await pidOf("lone");
      expect(await livePids(host, "lone")).toHaveLength(1);
      expect(await livePids(host, "lone-tail")).toHaveLength(1);
      await host.mustSh(`kill -9 ${leader}`);
      await host.waitFor(async () => (await livePids(host, "lone")).length + (await livePids(host, "lone-tail")).length === 0, {
        timeoutMs: 10_000,
        what: "the rest of the pipeline to end with its shell",
      });
      await pause(3_000);
      expect(await svStatus("/etc/sv/tend-lone")).toMatch(/^down: /);
      expect(await startedPids(host, "lone")).toHaveLength(1);
      await apply(BASE);
    });
  });

  it("fails plan for a timer: this host has /etc/cron.d but no cron daemon that would run it", async () => {
    expect(await host.mustSh("ls /etc/cron.d")).toBe("e2scrub_all\n");
    await proveTimerNeedsCron(host, SPEC, BASE);
  });

  it("removes services: down, unlinked, deleted", async () => {
    const pids = [await pidOf("web"), await pidOf("guard"), await pidOf("once")];
    await apply([]);
    for (const name of ["web", "guard", "once"]) {
      expect(await missing(`/etc/runit/runsvdir/default/tend-${name}`)).toBe(true);
      expect(await missing(`/etc/sv/tend-${name}`)).toBe(true);
    }
    // Removal unlinks and waits for runsv to exit: nothing of them is left when apply returns.
    for (const pid of pids) expect(await alive(pid)).toBe(false);
    const processes = (await host.mustSh("ps -eo args")).split("\n");
    expect(processes.filter((args) => /^(runsv tend-|svlogd -tt \/var\/log\/tend-|\/bin\/sh \/opt\/demo\/bin\/demo )(web|guard|once)\b/.test(args))).toEqual([]);
    expect((await host.mustSh("ps -o args= -p 1")).includes("supervise")).toBe(false); // runsvdir's log: no runsv complained
    expect(await host.readFile("/var/log/tend-web/current")).toContain("demo web started as root");
    await plan(0);
  });

  it("verifies a service it started and one it restarted while the wall clock steps a year forward, then back (reliability #22)", () => proveVerifyAcrossClockStep(host, "/spec/clockstep.yaml", []), 120_000);
  it("restarts a service whose init runs an older definition than the file on disk, without rewriting it", () => proveOlderDefinitionRestart(host, "/spec/olddef.yaml", [], "/etc/sv/tend-olddef/run"), 120_000);

  it("sets back in place a mode loosened by hand: the service's own file without a restart, a File it restarts on with one", () => proveModeDrift(host, "/spec/modes.yaml", [], "/etc/sv/tend-modes/run"), 120_000);

  it("restarts a service whose program was replaced on disk, unless restartOnUpgrade is false", () => proveStaleBuildRestart(host, "/spec/stale.yaml", []), 120_000);

  it("keeps a restart that a later failure stopped in the ledger, and the next apply carries it out", () => proveRestartLedger(host, "/spec/ledger.yaml", []), 120_000);
  it("does not carry out a start the ledger kept once the spec wants the service stopped", () => proveLedgerYieldsToSpec(host, "/spec/ledger.yaml", []), 120_000);

  it("a definition deleted by hand while the service runs: apply writes it back and restarts the service", () => proveDeletedDefinition(host, "/spec/deldef.yaml", [], "/etc/sv/tend-deldef/run"), 120_000);
  it("a seeded random walk of edits of three of alice's user services converges at every step, in her scope and the system's", () => proveRandomWalk(host, "/spec/uwalk.yaml", [], WALK.seed, WALK.steps, { byHand: BY_HAND_ALICE, user: "alice" }), 2 * WALK_TIMEOUT_MS);

  it("tells before a reboot which services would not come back, and the reboot proves it", () =>
    proveBootTruth(host, {
      specPath: "/spec/boot.yaml",
      base: [],
      offWhy: "/etc/sv/tend-boot-off/down keeps runsv from starting it at boot",
      userTend: (args) => host.expectTend([...args, "--user", "alice"]),
      cases: [
        {
          // alice's runsvdir runs now, but runsv leaves it down at boot: nothing starts her services
          name: "boot-user",
          doc: bootUserService("boot-user"),
          user: true,
          breakBoot: () => host.mustSh("touch /etc/sv/tend-runsvdir-alice/down"),
          why: "it runs under alice's runsvdir /etc/sv/tend-runsvdir-alice, which has a down file, so nothing starts it at boot",
          restore: () => host.mustSh("rm /etc/sv/tend-runsvdir-alice/down && sv up /etc/sv/tend-runsvdir-alice"),
        },
      ],
    }), 240_000);

  it("leaves nothing in /var/lib/tend but the lock, the state and the edited run script it replaced", async () => {
    expect(await host.mustSh("ls -A /var/lib/tend")).toBe("backups\nlock\nstate.json\n");
    // The drift test above restored an edited run script: apply keeps the edited copy, and nothing
    // else but the copies of the definitions the random walk's admin edited.
    const kept = await withoutWalkCopies(host, "/var/lib/tend/backups");
    expect(kept).toEqual([expect.stringMatching(/^\.\/[^/]+\/file\/etc\/sv\/tend-web\/run$/)]);
    expect(await host.readFile(`/var/lib/tend/backups/${kept[0]!.slice(2)}`)).toContain("export GREETING=edited\n");
  });
});
