import { overlayStatus, startHost, type TestHost } from "@tend/testkit/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applySpec } from "../support/apply-spec.js";
import { DEMO, demoStarts } from "../support/demo-daemon.js";
import { proveBootTruth } from "../support/boot-truth.js";
import { convergeDistro, convergeService, EVERY_DESIRED_STATE } from "../support/desired-states.js";
import { EXEC_FORMS, formProcesses, hupsReceived, livePids, startedPids, type ExecForm } from "../support/exec-forms.js";
import { GREETING as HOSTILE } from "../support/greeting.js";
import { proveModeDrift } from "../support/file-modes.js";
import { proveKilledBeforeLoad } from "../support/killed-before-load.js";
import { proveTimerNeedsCron } from "../support/cron-missing.js";
import { proveCrossScopeAfterRefused } from "../support/cross-scope-after.js";
import { proveVerifyAcrossClockStep } from "../support/clock-step.js";
import { proveOlderDefinitionRestart } from "../support/older-definition.js";
import { proveRestartLedger } from "../support/restart-ledger.js";
import { provePurePlans } from "../support/side-effects.js";
import { proveStaleBuildRestart } from "../support/stale-build.js";
import { proveRandomWalk, WALK, WALK_TIMEOUT_MS, withoutWalkCopies, type WalkOptions } from "../support/random-walk.js";
import { proveDeletedDefinition } from "../support/deleted-definition.js";
import { proveDependentsRestart } from "../support/dependents-restart.js";
import { proveRemovedHeadOfChain } from "../support/removed-dependency.js";
import { NOTHING } from "../support/spec-documents.js";

/**
 * What an admin does by hand in the random walk: edit or delete a service's definition, stop it,
 * disable it (`dinitctl disable` refuses a service tend enabled while stopped, by its link alone,
 * which dinit has not loaded: then the link goes).
 */
const BY_HAND: WalkOptions["byHand"] = { definition: (unit) => `/etc/dinit.d/${unit}`, stop: (unit) => ["dinitctl", "stop", "--force", unit], disable: (unit) => ["sh", "-c", `dinitctl disable ${unit} || rm /etc/dinit.d/boot.d/${unit}`] };

/** The same in alice's scope. */
const BY_HAND_ALICE: WalkOptions["byHand"] = { definition: (unit) => `/home/alice/.config/dinit.d/${unit}`, stop: (unit) => ["dinitctl", "--user", "stop", "--force", unit], disable: (unit) => ["sh", "-c", `dinitctl --user disable ${unit} || rm /home/alice/.config/dinit.d/boot.d/${unit}`], as: "alice" };

/**
 * @tend/provider-dinit through the tend CLI against a real dinit, PID 1 of the dinit image
 * (`dinit --container`, boot service with `waits-for.d = /etc/dinit.d/boot.d`). Debian packages no
 * dinit: the image exists only when TEND_IT_OVERLAY/dinit holds its binaries (see
 * packages/testkit/images/README.md); without them the suite is skipped, saying why. alice's own
 * dinit (`dinit --user`) runs as a system service of the test, as a login manager would start it.
 *
 * Every form an admin writes `exec` in (EXEC_FORMS) goes through kill, restart on change,
 * restartOn, reloadOn with HUP, desired stopped and removal, its processes counted in the process
 * table (livePids), never by asking dinit.
 *
 * The tests run in order and build on each other, as an admin's successive applies would.
 */

const overlay = overlayStatus("dinit");

const SYSTEM_SPEC = "/spec/system.yaml";
const ALICE_SPEC = "/spec/alice.yaml";

/** YAML documents, written as JSON (which YAML reads as is) so no value needs YAML escaping. */
function spec(...documents: Record<string, unknown>[]): string {
  return documents.map((doc) => JSON.stringify({ tend: "v1alpha1", ...doc })).join("\n---\n") + "\n";
}

/** A value dinit would mangle unescaped (`$HOME`, quotes, `#`, a backslash) and sh must not expand. */
const GREETING = `it's $HOME "q" #1 \\ 100% \`id\``;

/** Waits until /var/tmp/tend-test/<name> exists, then exits with the code written in it. */
const untilFlag = (name: string) => `while [ ! -e /var/tmp/tend-test/${name} ]; do sleep 0.2; done; exit "$(cat /var/tmp/tend-test/${name})"`;

const web = {
  type: "Service",
  name: "web",
  exec: `echo web starting; printf '%s|%s|%s\\n' "$GREETING" "$(id -un)" "$0" > /var/tmp/tend-web.out; exec sleep 100001`,
  restart: "on_failure",
  after: ["network"],
  env: { GREETING },
  description: "The web server",
};
const api = { type: "Service", name: "api", exec: "/bin/sleep 100002", restart: "always", after: ["web"] };
const always = { type: "Service", name: "pol-always", exec: untilFlag("pol-always"), restart: "always" };
const onFailure = { type: "Service", name: "pol-failure", exec: untilFlag("pol-failure"), restart: "on_failure" };
const never = { type: "Service", name: "pol-no", exec: untilFlag("pol-no") };
const distro = { type: "Service", name: "distro-echo" };
const conf = { type: "File", name: "hup-conf", path: "/etc/tend-hup.conf", content: "v1\n" };
const hup = {
  type: "Service",
  name: "hup",
  exec: `trap 'echo hup >> /var/tmp/tend-hup.log' HUP; while :; do sleep 0.2; done`,
  restart: "always",
  reloadSignal: "HUP",
  reloadOn: ["File[hup-conf]"],
};
const BASE = [web, api, always, onFailure, never, distro, conf, hup];
/** web with a new command, and the conf file with new content (later steps). */
const web2 = { ...web, exec: web.exec.replace("sleep 100001", "sleep 100011") };
const conf2 = { ...conf, content: "v2\n" };
const flaky = { type: "Service", name: "flaky", exec: "echo flaky says goodbye; sleep 1; exit 3" };

describe.skipIf(!overlay.available)("dinit services under a real dinit", () => {
  let host: TestHost;

  beforeAll(async () => {
    host = await startHost("dinit");
    await host.mustExec(["mkdir", "-p", "/var/tmp/tend-test"]);
    await host.writeFile("/opt/demo/bin/demo", DEMO, { mode: 0o755 });
    // A service a package would ship: tend only enables and disables it.
    await host.writeFile("/lib/dinit.d/distro-echo", "type = process\ncommand = /bin/sleep 100009\nrestart = false\n");
    // alice's service manager, started the way a login manager (turnstile) would.
    for (const dir of ["/home/alice/.config", "/home/alice/.config/dinit.d", "/home/alice/.config/dinit.d/boot.d"]) {
      await host.mustExec(["install", "-d", "-o", "alice", "-g", "alice", dir]);
    }
    await host.writeFile("/home/alice/.config/dinit.d/boot", "type = internal\nwaits-for.d = boot.d\n", { owner: "alice:alice" });
    await host.writeFile(
      "/etc/dinit.d/alice-dinit",
      "type = process\ncommand = /bin/sh -c \"exec dinit --user --quiet\"\nrun-as = alice\nload-options = export-passwd-vars\nrestart = true\n",
    );
    await host.mustExec(["dinitctl", "start", "alice-dinit"]);
    await host.waitFor(async () => (await host.exec(["dinitctl", "--user", "list"], { user: "alice" })).exitCode === 0, {
      timeoutMs: 20_000,
      what: "alice's dinit to listen",
    });
  }, 900_000);

  afterAll(async () => {
    await host?.stop();
  });

  /** One line of `dinitctl list` for a service, parsed: started or not, pid. */
  async function listed(name: string, user?: string): Promise<{ line: string; started: boolean; pid?: number } | undefined> {
    const output = await host.mustExec(user ? ["dinitctl", "--user", "list"] : ["dinitctl", "list"], user ? { user } : {});
    const line = output.split("\n").find((l) => l.endsWith(`] ${name}`) || l.includes(`] ${name} (`));
    if (!line) return undefined;
    const pid = /\(pid: (\d+)\)/.exec(line)?.[1];
    return { line, started: line[2] === "+", ...(pid ? { pid: Number(pid) } : {}) };
  }
  const exists = async (path: string) => (await host.exec(["test", "-e", path])).exitCode === 0 || (await host.exec(["test", "-L", path])).exitCode === 0;
  const flag = (name: string, code: number) => host.writeFile(`/var/tmp/tend-test/${name}`, `${code}\n`);
  const unflag = (name: string) => host.mustExec(["rm", "-f", `/var/tmp/tend-test/${name}`]);

  it("serves services with the dinit provider", async () => {
    expect(await host.expectTend(["providers"])).toMatch(/^\* @tend\/provider-dinit@\S+\s+service on dinit/m);
  });

  it("refuses, at plan, a service after network on a host with no dinit service named network", async () => {
    await host.writeFile(SYSTEM_SPEC, spec(...BASE));
    const output = await host.expectTend(["plan", "-f", SYSTEM_SPEC], { exitCode: 1 });
    expect(output).toContain(
      "service:web orders itself after `network`, which dinit reads as `depends-on = network`, but this host has no dinit service named `network`",
    );
    expect(await exists("/etc/dinit.d/tend-web")).toBe(false);
  });

  it("refuses, at plan, a distro service whose description does not exist", async () => {
    await host.writeFile("/spec/missing.yaml", spec({ type: "Service", name: "no-such-daemon" }));
    expect(await host.expectTend(["plan", "-f", "/spec/missing.yaml"], { exitCode: 1 })).toContain(
      "service:no-such-daemon has no exec, but /etc/dinit.d/no-such-daemon does not exist; install the package that ships it",
    );
  });

  it("adds services: writes, enables and starts them, and they verify", async () => {
    // Its own spec (the test before wrote the same), so it also runs alone (-t).
    await host.writeFile(SYSTEM_SPEC, spec(...BASE));
    await host.writeFile("/etc/dinit.d/network", "type = internal\n");
    const plan = await host.expectTend(["plan", "-f", SYSTEM_SPEC]);
    expect(plan).toContain("+ service:web");
    expect(plan).toContain("+ service:distro-echo  enable the distro unit");
    const output = await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    for (const name of ["web", "api", "pol-always", "pol-failure", "pol-no", "hup"]) expect(output).toContain(`service:${name}: verified`);

    expect(await host.readFile("/etc/dinit.d/tend-web")).toBe(
      [
        "# Managed by tend. Edits are overwritten on the next apply.",
        "# description: The web server",
        "type = process",
        `command = /usr/bin/env "GREETING=it's $$HOME \\"q\\" #1 \\\\ 100% \`id\`" /bin/sh -c "echo web starting; printf '%s|%s|%s\\\\n' \\"$$GREETING\\" \\"$$(id -un)\\" \\"$$0\\" > /var/tmp/tend-web.out; exec sleep 100001"`,
        "restart = on-failure",
        "depends-on = network",
        "logfile = /var/log/tend-web.log",
        "",
      ].join("\n"),
    );
    expect((await host.mustExec(["stat", "-c", "%a %U", "/etc/dinit.d/tend-web"])).trim()).toBe("644 root");
    // dinit passed the environment and the script through untouched, and sh did the rest.
    expect(await host.readFile("/var/tmp/tend-web.out")).toBe(`${GREETING}|root|/bin/sh\n`);
    expect(await host.readFile("/var/log/tend-web.log")).toContain("web starting");

    for (const name of ["tend-web", "tend-api", "tend-pol-always", "tend-pol-failure", "tend-pol-no", "tend-hup", "distro-echo"]) {
      expect((await listed(name))?.started, name).toBe(true);
      expect(await exists(`/etc/dinit.d/boot.d/${name}`), `${name} enabled`).toBe(true);
    }
    // The distro's own description is left where it is; tend wrote nothing for it.
    expect(await exists("/etc/dinit.d/distro-echo")).toBe(false);
  });

  it("has nothing to do on the next plan", async () => {
    const output = await host.expectTend(["plan", "-f", SYSTEM_SPEC, "--detailed-exitcode"]);
    expect(output).toContain("0 to add, 0 to change, 0 to remove");
  });

  it("orders a service after another tend service with a real dinit dependency", async () => {
    // dinit will not stop tend-web under tend-api without --force: the dependency is dinit's own.
    const refused = await host.exec(["dinitctl", "stop", "tend-web"]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("due to the following dependents");
    expect(refused.stderr).toContain("tend-api");
    // Forced, the stop takes tend-api down with it; starting tend-api brings tend-web up first.
    await host.mustExec(["dinitctl", "stop", "--force", "tend-web"]);
    await host.mustExec(["dinitctl", "start", "tend-api"]);
    expect((await listed("tend-web"))?.started).toBe(true);
    expect((await listed("tend-api"))?.started).toBe(true);
  });

  it("follows the restart policies: always and on_failure come back after a crash, no stays down", async () => {
    const before = new Map<string, number>();
    for (const name of ["pol-always", "pol-failure", "pol-no"]) before.set(name, (await listed(`tend-${name}`))!.pid!);
    for (const pid of before.values()) await host.mustExec(["kill", "-KILL", String(pid)]);
    for (const name of ["pol-always", "pol-failure"]) {
      await host.waitFor(async () => {
        const now = await listed(`tend-${name}`);
        return now?.started && now.pid !== before.get(name);
      }, { timeoutMs: 10_000, what: `tend-${name} to be restarted by dinit` });
    }
    await host.waitFor(async () => (await listed("tend-pol-no"))?.line.includes("{X}"), { timeoutMs: 10_000, what: "tend-pol-no to stay down" });

    // A clean exit (status 0) ends an on_failure service for good.
    await flag("pol-failure", 0);
    await host.waitFor(async () => (await listed("tend-pol-failure"))?.line.includes("{-}"), { timeoutMs: 10_000, what: "tend-pol-failure to stop" });
    // Well past dinit's restart delay (0.2 s), neither came back.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await listed("tend-pol-no"))?.started).toBe(false);
    expect((await listed("tend-pol-failure"))?.started).toBe(false);
    await unflag("pol-failure");
  });

  it("starts again what stopped, as drift", async () => {
    const plan = await host.expectTend(["plan", "-f", SYSTEM_SPEC, "--detailed-exitcode"], { exitCode: 2 });
    expect(plan).toMatch(/~ service:pol-no\s+start/);
    expect(plan).toMatch(/~ service:pol-failure\s+start/);
    expect(plan).toContain("stopped, want running");
    await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    expect((await listed("tend-pol-no"))?.started).toBe(true);
    expect((await listed("tend-pol-failure"))?.started).toBe(true);
  });

  it("enables again what was disabled behind its back", async () => {
    await host.mustExec(["dinitctl", "disable", "tend-api"]);
    expect(await exists("/etc/dinit.d/boot.d/tend-api")).toBe(false);
    expect(await host.expectTend(["plan", "-f", SYSTEM_SPEC])).toContain("not enabled at boot, want enabled");
    await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    expect(await exists("/etc/dinit.d/boot.d/tend-api")).toBe(true);
  });

  it("disables a service that must keep running without stopping it", async () => {
    // Released, tend-pol-always runs only because boot waits for it: a bare disable would stop it.
    await host.mustExec(["dinitctl", "--no-wait", "release", "tend-pol-always"]);
    expect((await listed("tend-pol-always"))?.line).toMatch(/^\[\{\+\}/);
    const pid = (await listed("tend-pol-always"))!.pid;
    await host.writeFile(SYSTEM_SPEC, spec(web, api, { ...always, desired: { state: "running", enabled: false } }, onFailure, never, distro, conf, hup));
    expect(await host.expectTend(["plan", "-f", SYSTEM_SPEC])).toMatch(/~ service:pol-always\s+disable/);
    await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    expect(await exists("/etc/dinit.d/boot.d/tend-pol-always")).toBe(false);
    expect((await listed("tend-pol-always"))?.pid).toBe(pid);
    await host.writeFile(SYSTEM_SPEC, spec(...BASE));
    await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    expect(await exists("/etc/dinit.d/boot.d/tend-pol-always")).toBe(true);
  });

  it("reports an edited description as drift, rewrites it, and dinit runs the rewritten one", async () => {
    const path = "/etc/dinit.d/tend-api";
    const pid = (await listed("tend-api"))!.pid;
    await host.writeFile(path, (await host.readFile(path)).replace("sleep 100002", "sleep 100077"));
    const plan = await host.expectTend(["plan", "-f", SYSTEM_SPEC, "--detailed-exitcode"], { exitCode: 2 });
    expect(plan).toContain(`! service:api drifted: ${path} was edited`);
    await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    expect(await host.readFile(path)).toContain("command = /bin/sleep 100002");
    const now = await listed("tend-api");
    expect(now?.started).toBe(true);
    expect(now?.pid).not.toBe(pid);
    expect((await host.mustExec(["ps", "-o", "args=", "-p", String(now!.pid)])).trim()).toBe("/bin/sleep 100002");
  });

  it("restarts a changed service, and the services that depend on it, on its new command", async () => {
    const apiPid = (await listed("tend-api"))!.pid;
    await host.writeFile(SYSTEM_SPEC, spec(web2, api, always, onFailure, never, distro, conf, hup));
    expect(await host.expectTend(["plan", "-f", SYSTEM_SPEC])).toContain("      also  restarts service:api, which comes after it\n");
    const output = await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    expect(output).toContain("service:web: verified");
    expect(output).toContain("service:api: restarted with service:web, which it comes after");
    expect(output).toContain("service:api: verified");
    const now = await listed("tend-web");
    expect((await host.mustExec(["ps", "-o", "args=", "-p", String(now!.pid)])).trim()).toBe("sleep 100011");
    // restart --force: dinit restarted the dependent too, and it runs.
    const api2 = await listed("tend-api");
    expect(api2?.started).toBe(true);
    expect(api2?.pid).not.toBe(apiPid);
    await host.expectTend(["plan", "-f", SYSTEM_SPEC, "--detailed-exitcode"]);
  });

  it("sends reloadSignal with dinitctl signal when a reloadOn file changes, without restarting", async () => {
    const pid = (await listed("tend-hup"))!.pid;
    await host.writeFile(SYSTEM_SPEC, spec(web2, api, always, onFailure, never, distro, conf2, hup));
    const plan = await host.expectTend(["plan", "-f", SYSTEM_SPEC]);
    expect(plan).toMatch(/~ service:hup\s+reload/);
    expect(plan).toContain("file:hup-conf changed, reloadOn matched");
    await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    await host.waitFor(async () => (await host.exec(["cat", "/var/tmp/tend-hup.log"])).stdout === "hup\n", { timeoutMs: 10_000, what: "tend-hup to get SIGHUP" });
    expect((await listed("tend-hup"))?.pid).toBe(pid);
  });

  it("fails verification for a service that dies after starting, with its log lines", async () => {
    await host.writeFile(SYSTEM_SPEC, spec(web2, api, always, onFailure, never, distro, conf2, hup, flaky));
    const output = await host.expectTend(["apply", "-f", SYSTEM_SPEC], { exitCode: 1 });
    expect(output).toContain("service:flaky did not verify");
    expect(output).toContain("flaky says goodbye");
    expect(output).toContain("/var/log/tend-flaky.log:");
    // The others were not disturbed.
    expect(output).not.toContain("service:web did not verify");
  });

  it("removes services: stops, disables and unloads them, deletes their files, and only disables a distro service", async () => {
    await host.writeFile(SYSTEM_SPEC, spec(web2, api, conf2, hup));
    const plan = await host.expectTend(["plan", "-f", SYSTEM_SPEC]);
    for (const name of ["pol-always", "pol-failure", "pol-no", "distro-echo", "flaky"]) expect(plan).toContain(`- service:${name}`);
    await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    for (const name of ["pol-always", "pol-failure", "pol-no", "flaky"]) {
      expect(await listed(`tend-${name}`), name).toBeUndefined();
      expect(await exists(`/etc/dinit.d/tend-${name}`)).toBe(false);
      expect(await exists(`/etc/dinit.d/boot.d/tend-${name}`)).toBe(false);
    }
    expect(await exists("/etc/dinit.d/boot.d/distro-echo")).toBe(false);
    expect(await exists("/lib/dinit.d/distro-echo")).toBe(true);
    expect((await listed("distro-echo"))?.started).not.toBe(true);
    await host.expectTend(["plan", "-f", SYSTEM_SPEC, "--detailed-exitcode"]);
  });

  /** What the removal test left: the services every later spec keeps. */
  const KEPT = [web2, api, conf2, hup];
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const cmdline = async (pid: number | string) => (await host.readFile(`/proc/${pid}/cmdline`)).split("\0").slice(0, -1);

  describe("exec forms: dinit supervises and signals the program itself, and stop, restart and removal end its whole process group", () => {
    const FORMS = Object.keys(EXEC_FORMS) as ExecForm[];
    /** The forms whose program is the process dinit starts; a pipeline's is its shell. */
    const SIGNALLED = FORMS.filter((form) => form !== "pipeline");
    const nameOf = (form: ExecForm) => `form-${form.toLowerCase()}`;
    const trigger = (content: string) => ({ type: "File", name: "trigger", path: "/etc/demo-trigger", content: `${content}\n` });
    const formConf = (content: string) => ({ type: "File", name: "form-conf", path: "/etc/demo-conf", content: `${content}\n` });
    /** One service per form, each with env (so dinit runs it through `/usr/bin/env NAME=value`); all but the pipeline reload on HUP. */
    const formService = (form: ExecForm, greeting: string, extra: Record<string, unknown>) => ({
      type: "Service",
      name: nameOf(form),
      exec: EXEC_FORMS[form](nameOf(form)),
      restart: "always",
      env: { GREETING: greeting },
      restartOn: ["File[trigger]"],
      ...(form === "pipeline" ? {} : { reloadSignal: "HUP", reloadOn: ["File[form-conf]"] }),
      ...extra,
    });
    const formSpec = (options: { greeting?: string; trigger?: string; conf?: string; extra?: Record<string, unknown> } = {}) =>
      spec(...KEPT, trigger(options.trigger ?? "one"), formConf(options.conf ?? "one"), ...FORMS.map((form) => formService(form, options.greeting ?? HOSTILE, options.extra ?? {})));
    const applyForms = async (options: Parameters<typeof formSpec>[0] = {}) => {
      await host.writeFile(SYSTEM_SPEC, formSpec(options));
      return host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    };
    /** The pid dinit lists for a form's service, "" when none. */
    const pidOf = async (form: ExecForm) => String((await listed(`tend-${nameOf(form)}`))?.pid ?? "");
    const { liveOf, snapshot, sharedOf: groupOf, oneEach, expectOnlyNew } = formProcesses({ host: () => host, forms: FORMS, nameOf, supervisedPid: pidOf, pipelineShares: "process group" });
    /** None of `old` alive right now: what apply must have ended before it returned. */
    async function expectNoneOf(old: Map<ExecForm, string[]>): Promise<void> {
      for (const form of FORMS) {
        const live = await liveOf(form);
        expect(live.filter((pid) => old.get(form)!.includes(pid)), `${nameOf(form)}: survivors once apply returned`).toEqual([]);
      }
    }
    let pids = new Map<ExecForm, string>();

    it("adds each form: dinit runs the program itself, its argv byte for byte through /usr/bin/env, or one sh -c leading a pipeline's process group", async () => {
      const output = await applyForms();
      for (const form of FORMS) expect(output).toContain(`service:${nameOf(form)}: verified`);
      pids = await oneEach();
      await expectOnlyNew(pids, new Map(FORMS.map((form) => [form, []])));
      const expected: Record<ExecForm, string[]> = {
        shellLoop: ["/bin/sh", "-c", EXEC_FORMS.shellLoop(nameOf("shellLoop")).slice("/bin/sh -c '".length, -1)],
        quotedArgs: ["/bin/sh", "/opt/demo/bin/demo", nameOf("quotedArgs"), "", "daemon off;"],
        scriptPath: ["/bin/sh", "/opt/demo/bin/demo", nameOf("scriptPath")],
        shellThenExec: ["/bin/sh", "/opt/demo/bin/demo", nameOf("shellThenExec")],
        pipeline: ["/bin/sh", "-c", EXEC_FORMS.pipeline(nameOf("pipeline"))],
      };
      for (const form of FORMS) {
        const pid = pids.get(form)!;
        expect(await cmdline(pid), nameOf(form)).toEqual(expected[form]);
        // env handed over the environment and exec'd the program in its own place.
        expect((await host.readFile(`/proc/${pid}/environ`)).split("\0"), nameOf(form)).toContain(`GREETING=${HOSTILE}`);
        // dinit made each service a session (and process group) of its own.
        expect(await groupOf(pid), nameOf(form)).toBe(pid);
      }
      expect((await demoStarts(host, nameOf("quotedArgs"))).at(-1)).toBe(`start ${pids.get("quotedArgs")} ${HOSTILE}`);
      expect((await host.exec(["test", "-e", "/tmp/pwned"])).exitCode).toBe(1);
      const command = (await host.readFile(`/etc/dinit.d/tend-${nameOf("quotedArgs")}`)).split("\n").find((line) => line.startsWith("command = "))!;
      expect(command).toMatch(/^command = \/usr\/bin\/env "GREETING=[^\n]*" \/opt\/demo\/bin\/demo form-quotedargs "" "daemon off;"$/);
      await host.expectTend(["plan", "-f", SYSTEM_SPEC, "--detailed-exitcode"]);
    });

    it("warns in plan that only a pipeline's shell is restarted when it dies alone", async () => {
      const plan = await host.expectTend(["plan", "-f", SYSTEM_SPEC, "--detailed-exitcode"]);
      expect(plan).toContain(
        `! service:${nameOf("pipeline")} warning: its exec keeps /bin/sh in front of the program (a pipeline, or a command after which the script goes on): if that shell alone dies, dinit starts the service again while the processes it started keep running; stop, restart and removal end them all (dinit signals the service's whole process group)`,
      );
      for (const form of SIGNALLED) expect(plan).not.toContain(`service:${nameOf(form)} warning`);
    });

    it("kill: dinit starts the program again, and exactly one live process runs", async () => {
      const old = await snapshot();
      for (const form of SIGNALLED) await host.mustExec(["kill", "-KILL", String(pids.get(form))]);
      const next = await oneEach(pids, SIGNALLED);
      await pause(1_500); // a second copy would show by now
      await expectOnlyNew(next, old, SIGNALLED);
      for (const form of SIGNALLED) pids.set(form, next.get(form)!);
    });

    it("restart on change: nothing of the old processes outlives the apply, and exactly one new one runs", async () => {
      const old = await snapshot();
      const output = await applyForms({ greeting: "changed" });
      for (const form of FORMS) expect(output).toContain(`service:${nameOf(form)}: changed, restarted`);
      await expectNoneOf(old);
      pids = await oneEach(pids);
      await expectOnlyNew(pids, old);
      for (const form of SIGNALLED.filter((f) => f !== "shellLoop")) expect((await demoStarts(host, nameOf(form))).at(-1)).toBe(`start ${pids.get(form)} changed`);
    });

    it("restartOn: a changed file restarts every form, the old processes gone once apply returns, exactly one new each", async () => {
      const old = await snapshot();
      const output = await applyForms({ greeting: "changed", trigger: "two" });
      for (const form of FORMS) expect(output).toContain(`service:${nameOf(form)}: changed, restarted (file:trigger changed, restartOn matched)`);
      await expectNoneOf(old);
      pids = await oneEach(pids);
      await expectOnlyNew(pids, old);
    });

    it("reloadOn with reloadSignal HUP: dinitctl signal reaches the program itself, same pid, started once, never restarted", async () => {
      const starts = new Map(await Promise.all(SIGNALLED.map(async (form) => [form, await startedPids(host, nameOf(form))] as const)));
      const output = await applyForms({ greeting: "changed", trigger: "two", conf: "two" });
      for (const form of SIGNALLED) {
        expect(output).toContain(`service:${nameOf(form)}: changed, reloaded (file:form-conf changed, reloadOn matched)`);
        const pid = String(pids.get(form));
        await host.waitFor(async () => (await hupsReceived(host, nameOf(form))).includes(pid), { timeoutMs: 10_000, what: `${nameOf(form)} to log its HUP` });
      }
      await pause(1_500); // a restart would show by now
      for (const form of SIGNALLED) {
        const pid = String(pids.get(form));
        expect(await hupsReceived(host, nameOf(form))).toEqual([pid]);
        expect(await pidOf(form)).toBe(pids.get(form));
        expect(await livePids(host, nameOf(form))).toEqual([pid]);
        expect(await startedPids(host, nameOf(form))).toEqual(starts.get(form));
      }
      expect(output).not.toContain(`service:${nameOf("pipeline")}: changed`);
    });

    it("refuses reloadSignal on a pipeline at plan, naming the field: dinitctl signal would reach its shell", async () => {
      const piped = { type: "Service", name: "piped", exec: EXEC_FORMS.pipeline("piped"), reloadSignal: "HUP", reloadOn: ["File[form-conf]"] };
      await host.writeFile("/spec/piped.yaml", formSpec({ greeting: "changed", trigger: "two", conf: "two" }) + "---\n" + JSON.stringify({ tend: "v1alpha1", ...piped }) + "\n");
      const output = await host.expectTend(["plan", "-f", "/spec/piped.yaml"], { exitCode: 1 });
      expect(output).toContain(
        "error TEND_INVALID_FIELD: service:piped has an invalid `reloadSignal`: `exec` is shell syntax that runs as `/bin/sh -c` without handing over to its last command (a pipeline, a background job or a compound command last), so `dinitctl signal HUP` would reach that shell, not the program",
      );
      expect(output).toMatch(/at .*service:piped, field reloadSignal/);
      expect(await exists("/etc/dinit.d/tend-piped")).toBe(false);
    });

    it("desired stopped: no process of any form runs once apply returns", async () => {
      const old = await snapshot();
      await applyForms({ greeting: "changed", trigger: "two", conf: "two", extra: { desired: { state: "stopped", enabled: true } } });
      for (const form of FORMS) {
        expect(await liveOf(form), nameOf(form)).toEqual([]);
        expect((await listed(`tend-${nameOf(form)}`))?.started, nameOf(form)).not.toBe(true);
        expect(await exists(`/etc/dinit.d/boot.d/tend-${nameOf(form)}`)).toBe(true);
      }
      await pause(1_500); // dinit restarts nothing it was told to stop
      for (const form of FORMS) expect(await liveOf(form), nameOf(form)).toEqual([]);
      expect([...old.values()].flat()).toHaveLength(FORMS.length + 1);
      await host.expectTend(["plan", "-f", SYSTEM_SPEC, "--detailed-exitcode"]);
      await applyForms({ greeting: "changed", trigger: "two", conf: "two" });
      pids = await oneEach();
    });

    it("removal: no process of any form runs once apply returns, and dinit forgets them", async () => {
      const old = await snapshot();
      expect([...old.values()].flat()).toHaveLength(FORMS.length + 1);
      await host.writeFile(SYSTEM_SPEC, spec(...KEPT));
      await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
      for (const form of FORMS) {
        expect(await liveOf(form), nameOf(form)).toEqual([]);
        expect(await listed(`tend-${nameOf(form)}`)).toBeUndefined();
        expect(await exists(`/etc/dinit.d/tend-${nameOf(form)}`)).toBe(false);
      }
    });

    it("a program of the group that ignores dinit's TERM is killed before apply returns, so nothing survives a removal", async () => {
      const stubborn = {
        type: "Service",
        name: "stubborn",
        exec: `/opt/demo/bin/demo stubborn | /bin/sh -c 'trap "" TERM; echo "start $$" >> /var/tmp/demo-stubborn-tail; while :; do sleep 1; done'`,
        restart: "always",
      };
      await host.writeFile(SYSTEM_SPEC, spec(...KEPT, stubborn));
      await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
      const leader = await host.waitFor(async () => {
        const pid = (await listed("tend-stubborn"))?.pid;
        return pid !== undefined && (await livePids(host, "stubborn-tail")).length === 1 ? pid : undefined;
      }, { timeoutMs: 10_000, what: "tend-stubborn to run" });
      const [tail] = await livePids(host, "stubborn-tail");
      expect(await groupOf(tail!)).toBe(String(leader));
      await host.writeFile(SYSTEM_SPEC, spec(...KEPT));
      const output = await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
      expect(await livePids(host, "stubborn")).toEqual([]);
      expect(await livePids(host, "stubborn-tail")).toEqual([]);
      expect(output).toContain(`tend-stubborn: killed what was left of its process group ${leader}, 5 s after dinit stopped it`);
    });

    it("a program path holding `=` with env: sh execs it in its own place, so dinit still supervises the program", async () => {
      await host.mustSh("mkdir -p '/opt/demo/a=b' && cp /opt/demo/bin/demo '/opt/demo/a=b/demo'");
      const eq = { type: "Service", name: "eqpath", exec: "/opt/demo/a=b/demo eqpath", restart: "always", env: { GREETING: "eq" } };
      await host.writeFile(SYSTEM_SPEC, spec(...KEPT, eq));
      expect(await host.expectTend(["apply", "-f", SYSTEM_SPEC])).toContain("service:eqpath: verified");
      expect(await host.readFile("/etc/dinit.d/tend-eqpath")).toContain(`command = /usr/bin/env GREETING=eq /bin/sh -c "exec \\"$$0\\" \\"$$@\\"" /opt/demo/a=b/demo eqpath\n`);
      const pid = await host.waitFor(async () => {
        const supervised = (await listed("tend-eqpath"))?.pid;
        return supervised !== undefined && (await livePids(host, "eqpath")).length === 1 ? supervised : undefined;
      }, { timeoutMs: 10_000, what: "tend-eqpath to run" });
      expect(await livePids(host, "eqpath")).toEqual([String(pid)]);
      expect(await cmdline(pid)).toEqual(["/bin/sh", "/opt/demo/a=b/demo", "eqpath"]);
      await host.writeFile(SYSTEM_SPEC, spec(...KEPT));
      await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
      expect(await livePids(host, "eqpath")).toEqual([]);
    });
  });

  describe("batching: one dinitctl list for a wave, then only the one call each service needs", () => {
    /** dinitctl's calls, logged by a shim first on tend's PATH (/usr/local/sbin). */
    const LOG = "/var/tmp/dinitctl-calls";
    const many = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({ type: "Service", name: `${prefix}${i}`, exec: `/bin/sleep ${200_000 + i}`, restart: "always" }));
    /** The dinitctl calls `tend apply` makes for a spec, counted by subcommand. */
    async function callsOf(resources: Record<string, unknown>[]): Promise<Record<string, number>> {
      await host.writeFile(SYSTEM_SPEC, spec(...KEPT, ...resources));
      await host.mustExec(["rm", "-f", LOG]);
      await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
      const lines = (await host.exec(["cat", LOG])).stdout.split("\n").filter(Boolean);
      const counts: Record<string, number> = {};
      for (const line of lines) {
        const verb = line.split(" ").find((word) => !word.startsWith("-"))!;
        counts[verb] = (counts[verb] ?? 0) + 1;
      }
      return counts;
    }

    beforeAll(async () => {
      expect((await host.mustSh("command -v dinitctl")).trim()).toBe("/usr/bin/dinitctl");
      await host.writeFile("/usr/local/sbin/dinitctl", `#!/bin/sh\necho "$*" >> ${LOG}\nexec /usr/bin/dinitctl "$@"\n`, { mode: 0o755 });
    });
    afterAll(async () => {
      await host.exec(["rm", "-f", "/usr/local/sbin/dinitctl", LOG]);
    });

    it("adds 3 services or 20 with the same queries (dinitctl list) and one dinitctl enable each, which also starts it; removes them with one stop, disable and unload each", async () => {
      const addThree = await callsOf(many("three-", 3));
      const removeThree = await callsOf([]);
      const addTwenty = await callsOf(many("twenty-", 20));
      for (let i = 0; i < 20; i += 1) expect((await listed(`tend-twenty-${i}`))?.started, `tend-twenty-${i}`).toBe(true);
      const removeTwenty = await callsOf([]);
      expect(await listed("tend-twenty-0")).toBeUndefined();

      // No reload of a description dinit never loaded, no start after an enable that started it.
      expect(Object.keys(addThree).sort()).toEqual(["enable", "list"]);
      expect(addThree.enable).toBe(3);
      expect(addTwenty).toEqual({ ...addThree, enable: 20 });
      expect(Object.keys(removeThree).sort()).toEqual(["disable", "list", "stop", "unload"]);
      expect(removeThree).toMatchObject({ stop: 3, disable: 3, unload: 3 });
      expect(removeTwenty).toEqual({ ...removeThree, stop: 20, disable: 20, unload: 20 });
    });
  });

  it("refuses a user service ordered after a system service at plan: no init orders services across scopes", () =>
    proveCrossScopeAfterRefused(host, "/spec/cross.yaml", (...docs) => docs.join("---\n"), KEPT.map((resource) => spec(resource)), "api", "/home/alice/.config/dinit.d/tend-mine"));

  describe("user services, under alice's own dinit", () => {
    const sync = {
      type: "Service",
      name: "sync",
      user: true,
      exec: `echo sync up; printf '%s|%s\\n' "$(id -un)" "$HOME" > "$HOME/tend-sync.out"; exec sleep 100021`,
      restart: "always",
      after: ["network"],
    };

    it("adds a user service as alice: in ~/.config/dinit.d, enabled from her boot, running as her", async () => {
      await host.writeFile(ALICE_SPEC, spec(sync), { owner: "alice:alice" });
      const output = await host.expectTend(["apply", "--user", "-f", ALICE_SPEC], { user: "alice" });
      expect(output).toContain("service:sync: verified");
      const path = "/home/alice/.config/dinit.d/tend-sync";
      expect(await host.readFile(path)).not.toContain("depends-on");
      expect((await host.mustExec(["stat", "-c", "%a %U", path])).trim()).toBe("644 alice");
      expect(await host.readFile("/home/alice/tend-sync.out")).toBe("alice|/home/alice\n");
      expect(await host.readFile("/home/alice/.local/state/tend/log/tend-sync.log")).toContain("sync up");
      expect((await listed("tend-sync", "alice"))?.started).toBe(true);
      expect(await exists("/home/alice/.config/dinit.d/boot.d/tend-sync")).toBe(true);
      expect(await listed("tend-sync")).toBeUndefined();
    });

    it("has nothing to do on the next plan, as alice or as root for alice", async () => {
      await host.expectTend(["plan", "--user", "-f", ALICE_SPEC, "--detailed-exitcode"], { user: "alice" });
      await host.expectTend(["plan", "--user", "alice", "-f", ALICE_SPEC, "--detailed-exitcode"]);
    });

    it("restarts it when changed, driven by root for alice", async () => {
      const pid = (await listed("tend-sync", "alice"))!.pid;
      await host.writeFile(ALICE_SPEC, spec({ ...sync, exec: sync.exec.replace("100021", "100022") }), { owner: "alice:alice" });
      await host.expectTend(["apply", "--user", "alice", "-f", ALICE_SPEC]);
      const now = await listed("tend-sync", "alice");
      expect(now?.pid).not.toBe(pid);
      expect((await host.mustExec(["ps", "-o", "user=,args=", "-p", String(now!.pid)])).trim()).toMatch(/^alice\s+sleep 100022$/);
    });

    it("removes it", async () => {
      await host.writeFile(ALICE_SPEC, NOTHING, { owner: "alice:alice" });
      await host.expectTend(["apply", "--user", "-f", ALICE_SPEC], { user: "alice" });
      expect(await listed("tend-sync", "alice")).toBeUndefined();
      expect(await exists("/home/alice/.config/dinit.d/tend-sync")).toBe(false);
      expect(await exists("/home/alice/.config/dinit.d/boot.d/tend-sync")).toBe(false);
    });
  });

  describe("read-only commands change nothing (G2)", () => {
    const conf = (content: string) => ({ type: "File", name: "pure-conf", path: "/etc/pure/pure.conf", content });
    const pure = (token: string) => ({ type: "Service", name: "pure", exec: "/opt/demo/bin/demo pure", restart: "always", reloadSignal: "HUP", reloadOn: ["File[pure-conf]"], env: { API_TOKEN: token } });
    /** What a plan may ask dinit: the list of its services, and each one's status. */
    const READ_ONLY = /^dinitctl (list|status)( |$)/;

    it("plan, plan --diff and observe run only dinitctl's queries and change no file, converged or not; the same spy sees all that apply does", async () => {
      const docs = [conf("a = 1\n"), pure("abcd1234")].map((d) => spec(d));
      const changedText = spec(conf("a = 2\n"), pure("efgh5678"));
      const applied = await provePurePlans(host, { spec: "/spec/pure.yaml", docs, changed: "/spec/pure-changed.yaml", changedText, queries: READ_ONLY });
      // Its env holds a token: the description dinit loaded is root's to read alone.
      expect(await host.mustExec(["stat", "-c", "%a", "/etc/dinit.d/tend-pure"])).toBe("600\n");
      expect(applied.changes.filter((call) => call.includes('"/etc/pure/')).length).toBeGreaterThan(0);
      expect(applied.changes.filter((call) => call.includes('"/etc/dinit.d/tend-pure')).length).toBeGreaterThan(0);
      expect(applied.commands.map((argv) => argv.join(" ")).filter((line) => !READ_ONLY.test(line))).toEqual(expect.arrayContaining([expect.stringMatching(/^dinitctl (restart|reload)/)]));
      await host.writeFile("/spec/pure.yaml", NOTHING);
      await host.expectTend(["apply", "-f", "/spec/pure.yaml"]);
    });
  });

  describe("a distro service in every state × enabled (a stand-in package's description)", () => {
    beforeAll(() => host.writeFile("/lib/dinit.d/demo-distro", "type = process\ncommand = /opt/demo/bin/demo demo-distro\n"));

    it.each(EVERY_DESIRED_STATE)("converges to %s, enabled %s: dinit, its boot link and the process table agree, and the next plan is clean", (state, enabled) =>
      convergeDistro(host, "/spec/distro.yaml", [], "demo-distro", [state, enabled], async () => {
        expect((await listed("demo-distro"))?.started === true).toBe(state === "running");
        expect(await exists("/etc/dinit.d/boot.d/demo-distro")).toBe(enabled);
        // The package's description is the package's: tend writes nothing for it.
        expect(await exists("/etc/dinit.d/demo-distro")).toBe(false);
      }),
    );
  });

  it("a seeded random walk of edits of three services converges at every step: the next plan is clean and the process table agrees", () => proveRandomWalk(host, "/spec/walk.yaml", [], WALK.seed, WALK.steps, { dependentsRestart: true, byHand: BY_HAND }), WALK_TIMEOUT_MS);
  it("a definition deleted by hand while the service runs: apply writes it back and restarts the service", () => proveDeletedDefinition(host, "/spec/deldef.yaml", [], "/etc/dinit.d/tend-deldef"), 120_000);
  it("a seeded random walk of edits of three of alice's user services converges at every step, in her scope and the system's", () => proveRandomWalk(host, "/spec/uwalk.yaml", [], WALK.seed, WALK.steps, { dependentsRestart: true, byHand: BY_HAND_ALICE, user: "alice" }), 2 * WALK_TIMEOUT_MS);

  it("names the services dinit restarts with a changed one (restart --force) and verifies them: one that does not come back fails the apply", () => proveDependentsRestart(host, "/spec/cascade.yaml", []), 120_000);
  it("removes the service a running chain of two comes after: the chain runs on, and the one whose definition changed restarts with the one after it", () => proveRemovedHeadOfChain(host, "/spec/chain.yaml", []), 120_000);

  describe("a tend service in every state × enabled", () => {
    afterAll(() => applySpec(host, "/spec/tour.yaml", []));

    it.each(EVERY_DESIRED_STATE)("converges to %s, enabled %s: dinit, its boot link and the process table agree, and the next plan is clean", (state, enabled) =>
      convergeService(host, "/spec/tour.yaml", [], "tour", [state, enabled], async () => {
        expect((await listed("tend-tour"))?.started === true).toBe(state === "running");
        expect(await exists("/etc/dinit.d/boot.d/tend-tour")).toBe(enabled);
      }),
    );
  });

  it("fails plan for a timer: this host has /etc/cron.d but no cron daemon that would run it", () => proveTimerNeedsCron(host, "/spec/timer.yaml", []));

  it("verifies a service it started and one it restarted while the wall clock steps a year forward, then back (reliability #22)", () => proveVerifyAcrossClockStep(host, "/spec/clockstep.yaml", []), 120_000);
  it("restarts a service whose init runs an older definition than the file on disk, without rewriting it", () => proveOlderDefinitionRestart(host, "/spec/olddef.yaml", [], "/etc/dinit.d/tend-olddef"), 120_000);

  it("sets back in place a mode loosened by hand: the service's own file without a restart, a File it restarts on with one", () => proveModeDrift(host, "/spec/modes.yaml", [], "/etc/dinit.d/tend-modes"), 120_000);

  it("restarts a service whose program was replaced on disk, unless restartOnUpgrade is false", () => proveStaleBuildRestart(host, "/spec/stale.yaml", []), 120_000);

  it("keeps a restart that a later failure stopped in the ledger, and the next apply carries it out", () => proveRestartLedger(host, "/spec/ledger.yaml", []), 120_000);

  it("an apply killed after writing a changed description, before dinit reloaded it: the next apply reloads it, and the restarted program is the new one", () =>
    proveKilledBeforeLoad(host, "/spec/preload.yaml", [], { program: "dinitctl", real: "/usr/bin/dinitctl", word: "reload" }, "/etc/dinit.d/tend-preload"), 120_000);

  it("tells before a reboot which services would not come back, and the reboot proves it", () =>
    proveBootTruth(host, { specPath: "/spec/boot.yaml", base: [], offWhy: "boot does not wait for it (no link /etc/dinit.d/boot.d/tend-boot-off)" }), 240_000);

  it("leaves nothing in /var/lib/tend but the lock, the state and the edited description it replaced; alice's state folder the same", async () => {
    expect(await host.mustSh("ls -A /var/lib/tend")).toBe("backups\nlock\nstate.json\n");
    // The drift test restored an edited description: apply kept the edited copy, and nothing else
    // but the copies of the definitions the random walks' admin edited.
    const kept = await withoutWalkCopies(host, "/var/lib/tend/backups");
    expect(kept).toEqual([expect.stringMatching(/^\.\/[^/]+\/file\/etc\/dinit\.d\/tend-api$/)]);
    expect(await host.readFile(`/var/lib/tend/backups/${kept[0]!.slice(2)}`)).toContain("command = /bin/sleep 100077\n");
    expect((await host.mustSh("ls -A /home/alice/.local/state/tend")).split("\n").filter((entry) => entry !== "" && entry !== "backups")).toEqual(["lock", "log", "state.json"]);
    expect(await withoutWalkCopies(host, "/home/alice/.local/state/tend/backups")).toEqual([]);
  });
});

describe.skipIf(overlay.available)("dinit services under a real dinit (skipped)", () => {
  it.skip(`needs the dinit image: ${overlay.available ? "" : overlay.why}`, () => undefined);
});
