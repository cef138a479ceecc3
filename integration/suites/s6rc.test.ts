import { overlayStatus, startHost, type TestHost } from "@tend/testkit/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO, demoStarts } from "../support/demo-daemon.js";
import { proveBootTruth } from "../support/boot-truth.js";
import { convergeService, EVERY_DESIRED_STATE } from "../support/desired-states.js";
import { EXEC_FORMS, formProcesses, hupsReceived, livePids, startedPids, type ExecForm } from "../support/exec-forms.js";
import { proveModeDrift } from "../support/file-modes.js";
import { applySpec, planSpec } from "../support/apply-spec.js";
import { commandsOfRun, withoutRepeats } from "../support/commands-of-run.js";
import { proveTimerNeedsCron } from "../support/cron-missing.js";
import { proveVerifyAcrossClockStep } from "../support/clock-step.js";
import { proveOlderDefinitionRestart } from "../support/older-definition.js";
import { proveRestartLedger } from "../support/restart-ledger.js";
import { roundsRunning, serviceWave } from "../support/service-wave.js";
import { doc, NOTHING, spec } from "../support/spec-documents.js";
import { proveRandomWalk, WALK, WALK_TIMEOUT_MS, withoutWalkCopies, type WalkOptions } from "../support/random-walk.js";
import { proveDeletedDefinition } from "../support/deleted-definition.js";
import { proveDependentsRestart } from "../support/dependents-restart.js";
import { proveRemovedHeadOfChain } from "../support/removed-dependency.js";
import { provePurePlans } from "../support/side-effects.js";
import { proveStaleBuildRestart } from "../support/stale-build.js";

/** What an admin does by hand in the random walk: edit or delete a service's definition, stop it (s6-rc has no disable of its own: enabled is the compiled `tend` bundle). */
const BY_HAND: WalkOptions["byHand"] = { definition: (unit) => `/etc/s6/sv/${unit}/run`, stop: (unit) => ["s6-rc", "-l", "/run/s6-rc", "-d", "change", unit] };

/**
 * The whole s6-rc path through the tend CLI, against the s6rc image: s6-svscan as PID 1, s6-rc's
 * live state in /run/s6-rc, booted on /etc/s6/db/current. Debian has no s6-rc, so the image needs
 * its programs from TEND_IT_OVERLAY; without them the suite skips and says why.
 *
 * Written from s6-rc's documentation (s6-rc-compile, s6-rc-update, s6-rc-init, s6-rc, s6-rc-db):
 * compiles go to fresh databases, s6-rc-update switches the live state and restarts only what its
 * conversion file names, new services are started by `s6-rc -u change`, `current` follows.
 */

const overlay = overlayStatus("s6rc");
const SPEC = "/spec/tend.yaml";

interface Fleet {
  version: string;
  conf: string;
  /** worker's desired state, when not the default. */
  worker?: string;
  /** Declare web (and what only web needs). */
  web?: boolean;
  crashy?: boolean;
  ready?: boolean;
}

/** The spec's documents (values JSON-quoted): web after db, a config file that restarts worker and reloads reloader. */
function fleetDocs(fleet: Fleet): string[] {
  const q = JSON.stringify;
  const docs = [
    `type: Service\nname: db\nexec: ${q("sleep 100000")}\nrestart: on_failure`,
    `type: File\nname: conf\npath: /etc/tend-it/app.conf\ncontent: ${q(fleet.conf)}`,
    `type: Service\nname: worker\nexec: ${q("sleep 100001")}\nrestart: always\nrestartOn: [file:conf]${fleet.worker ? `\ndesired: ${fleet.worker}` : ""}`,
    `type: Service\nname: reloader\nexec: ${q("trap 'echo hup >> /tmp/reloader.hups' HUP; : > /tmp/reloader.ready; while :; do sleep 0.2; done")}\nrestart: always\nreloadOn: [file:conf]\nreloadSignal: HUP`,
  ];
  if (fleet.web !== false) {
    docs.push(
      `type: Service\nname: web\nexec: ${q(`printf '%s|%s' "$VERSION" "$GREETING" > /tmp/web.version; exec sleep 100002`)}\nrestart: always\nafter: [db, network]\n` +
        `env:\n  VERSION: ${q(fleet.version)}\n  GREETING: ${q(`it's "quoted" $HOME`)}`,
    );
  }
  if (fleet.crashy) docs.push(`type: Service\nname: crashy\nexec: ${q("sleep 1; exit 1")}\nrestart: always`);
  if (fleet.ready) docs.push(`type: Service\nname: ready\nexec: ${q("sleep 2; echo ready >&3; exec sleep 100003")}\nrestart: always`);
  return docs.map(doc);
}

function fleetSpec(fleet: Fleet): string {
  return spec(...fleetDocs(fleet));
}

const TITLE = "s6-rc services through the tend CLI";
if (!overlay.available) process.stderr.write(`[s6rc] skipping the s6-rc suite: ${overlay.why}\n`);

describe.skipIf(!overlay.available)(overlay.available ? TITLE : `${TITLE} (skipped: ${overlay.why})`, () => {
  let host: TestHost;
  let fleet: Fleet = { version: "1", conf: "a" };

  beforeAll(async () => {
    host = await startHost("s6rc");
    await host.writeFile("/opt/demo/bin/demo", DEMO, { mode: 0o755 });
  });

  afterAll(async () => {
    await host?.stop();
  });

  async function declare(next: Fleet): Promise<void> {
    fleet = next;
    await host.writeFile(SPEC, fleetSpec(next));
  }

  const names = (text: string) => text.split("\n").filter(Boolean);
  const upList = async () => names(await host.mustExec(["s6-rc", "-l", "/run/s6-rc", "-a", "list"]));
  const liveServices = async () => names(await host.mustExec(["s6-rc-db", "-l", "/run/s6-rc", "list", "services"]));
  const bootBundle = async () => names(await host.mustExec(["s6-rc-db", "-c", "/etc/s6/db/current", "contents", "tend"]));
  const current = async () => (await host.mustExec(["readlink", "/etc/s6/db/current"])).trim();
  async function svstat(name: string): Promise<{ up: boolean; wantedUp: boolean; ready: boolean; pid: number }> {
    const [up, wantedUp, ready, pid] = (await host.mustExec(["s6-svstat", "-o", "up,wantedup,ready,pid", `/run/s6-rc/servicedirs/tend-${name}`])).trim().split(" ");
    return { up: up === "true", wantedUp: wantedUp === "true", ready: ready === "true", pid: Number(pid) };
  }

  it("serves services with the s6 provider on this host", async () => {
    await declare(fleet);
    expect(await host.expectTend(["providers", "-f", SPEC])).toMatch(/^\* @tend\/provider-s6@\S+\s+service on s6/m);
    const plan = await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"], { exitCode: 2 });
    expect(plan).toContain("host s6rc-host (s6)");
    expect(plan).toContain("+ service:web  printf");
    expect(plan).toContain("5 to add, 0 to change, 0 to remove");
  });

  it("compiles a fresh database, switches to it, starts every service and verifies it", async () => {
    const before = await current();
    const output = await host.expectTend(["apply", "-f", SPEC]);
    expect(output).toMatch(/service:web: verified/);
    expect(await current()).toBe("tend-g1-a");
    expect(before).toBe("initial");
    await host.mustExec(["test", "-d", "/etc/s6/db/initial"]); // the image's own database stays
    expect(await upList()).toEqual(expect.arrayContaining(["tend-db", "tend-web", "tend-worker", "tend-reloader"]));
    expect((await bootBundle()).sort()).toEqual(["tend-db", "tend-reloader", "tend-web", "tend-worker"]);
    expect(names(await host.mustExec(["s6-rc-db", "-l", "/run/s6-rc", "dependencies", "tend-web"]))).toEqual(["tend-db"]);
    expect(await host.readFile("/tmp/web.version")).toBe(`1|it's "quoted" $HOME`);
    for (const name of ["db", "web", "worker", "reloader"]) expect(await svstat(name)).toMatchObject({ up: true, wantedUp: true });
  });

  it("plans nothing on a second run, and observes what it applied", async () => {
    expect(await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"], { exitCode: 0 })).toContain("0 to add, 0 to change, 0 to remove");
    const result = await host.tend(["observe", "-f", SPEC, "--json"]);
    expect(result.exitCode).toBe(0);
    const observed = (JSON.parse(result.stdout) as { result: { resources: unknown } }).result.resources as {
      key: string;
      exists: boolean;
      state?: string;
      enabled?: boolean;
    }[];
    expect(observed.find((o) => o.key === "service:web")).toMatchObject({ exists: true, state: "running", enabled: true });
  });

  it("restarts a changed service through the conversion file, so its new definition really runs", async () => {
    const web = await svstat("web");
    const db = await svstat("db");
    await declare({ ...fleet, version: "2" });
    const output = await host.expectTend(["apply", "-f", SPEC]);
    expect(output).toContain("restarting tend-web");
    expect(await host.readFile("/tmp/web.version")).toBe(`2|it's "quoted" $HOME`);
    expect((await svstat("web")).pid).not.toBe(web.pid);
    expect((await svstat("db")).pid).toBe(db.pid);
    expect(await current()).toBe("tend-g2-a");
    await host.mustExec(["test", "-d", "/etc/s6/db/tend-g1-a"]); // old databases stay
  });

  it("restarts on restartOn and reloads on reloadOn (SIGHUP through s6-svc, same process)", async () => {
    await host.waitFor(async () => (await host.exec(["test", "-e", "/tmp/reloader.ready"])).exitCode === 0, { what: "reloader to set its trap" });
    const worker = await svstat("worker");
    const reloader = await svstat("reloader");
    await declare({ ...fleet, conf: "b" });
    const output = await host.expectTend(["apply", "-f", SPEC]);
    expect(output).toMatch(/service:worker: changed, restarted \(file:conf changed, restartOn matched\)/);
    expect(output).toMatch(/service:reloader: changed, reloaded/);
    expect((await svstat("worker")).pid).not.toBe(worker.pid);
    expect((await svstat("reloader")).pid).toBe(reloader.pid);
    await host.waitFor(async () => (await host.exec(["cat", "/tmp/reloader.hups"])).stdout === "hup\n", { what: "reloader to trap SIGHUP" });
    expect(await current()).toBe("tend-g2-a"); // no source definition changed: no compile
  });

  it("reports an edited run file as drift and puts it back", async () => {
    await host.mustSh("echo 'exec sleep 5' >> /etc/s6/sv/tend-web/run");
    const plan = await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"], { exitCode: 2 });
    expect(plan).toContain("! service:web drifted: /etc/s6/sv/tend-web/run was edited");
    await host.expectTend(["apply", "-f", SPEC]);
    expect(await host.readFile("/etc/s6/sv/tend-web/run")).not.toContain("exec sleep 5");
    expect(await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"], { exitCode: 0 })).toContain("0 to change");
  });

  it("starts a service s6 stopped behind s6-rc's back (s6-rc still lists it up)", async () => {
    await host.mustExec(["s6-svc", "-d", "/run/s6-rc/servicedirs/tend-worker"]);
    await host.waitFor(async () => !(await svstat("worker")).up, { what: "worker to stop" });
    expect(await upList()).toContain("tend-worker");
    const plan = await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"], { exitCode: 2 });
    expect(plan).toContain("stopped, want running");
    await host.expectTend(["apply", "-f", SPEC]);
    expect(await svstat("worker")).toMatchObject({ up: true, wantedUp: true });
  });

  it("stops a service and takes it out of the boot bundle when the spec says so", async () => {
    await declare({ ...fleet, worker: "{state: stopped, enabled: false}" });
    await host.expectTend(["apply", "-f", SPEC]);
    expect(await upList()).not.toContain("tend-worker");
    expect(await bootBundle()).not.toContain("tend-worker");
    expect(await liveServices()).toContain("tend-worker");
    expect(await svstat("worker")).toMatchObject({ up: false, wantedUp: false });
    expect((await host.exec(["test", "-e", "/etc/s6/sv/tend/contents.d/tend-worker"])).exitCode).toBe(1);
    expect(await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"], { exitCode: 0 })).toContain("0 to change");
  });

  it("waits for a service whose directory has a notification-fd until it says it is ready", async () => {
    // tend writes no notification-fd (it cannot know a program supports it); an admin may add one
    await host.mustExec(["mkdir", "-p", "/etc/s6/sv/tend-ready"]);
    await host.writeFile("/etc/s6/sv/tend-ready/notification-fd", "3\n");
    await declare({ ...fleet, ready: true });
    await host.expectTend(["apply", "-f", SPEC]);
    expect(await svstat("ready")).toMatchObject({ up: true, ready: true });
  });

  it("fails verification for a service that dies after it started, naming it", async () => {
    await declare({ ...fleet, crashy: true });
    const output = await host.expectTend(["apply", "-f", SPEC], { exitCode: 1 });
    expect(output).toMatch(/service:crashy did not verify/);
  });

  it("brings a removed service down before the switch and leaves old databases in place", async () => {
    const webPid = (await svstat("web")).pid;
    await declare({ ...fleet, crashy: false, web: false });
    const output = await host.expectTend(["apply", "-f", SPEC]);
    expect(output).toContain("service:web: removed");
    expect(await liveServices()).not.toContain("tend-web");
    expect(await bootBundle()).not.toContain("tend-web");
    expect((await host.exec(["test", "-e", "/etc/s6/sv/tend-web"])).exitCode).toBe(1);
    expect((await host.exec(["kill", "-0", String(webPid)])).exitCode).not.toBe(0);
    const databases = names(await host.mustExec(["ls", "/etc/s6/db"]));
    expect(databases).toEqual(expect.arrayContaining(["current", "initial", "tend-g1-a", "tend-g2-a"]));
    expect(databases).toContain(await current());
    expect(await upList()).toEqual(expect.arrayContaining(["tend-db", "tend-reloader", "tend-ready"]));
  });

  it("applies into an image root offline: compiles and points current there, touches nothing live", async () => {
    const live = await upList();
    const liveDb = await current();
    await host.mustExec(["mkdir", "-p", "/tmp/image"]);
    await host.expectTend(["apply", "-f", SPEC, "--init", "s6", "--root", "/tmp/image"]);
    expect((await host.mustExec(["readlink", "/tmp/image/etc/s6/db/current"])).trim()).toBe("tend-g1-a");
    expect(names(await host.mustExec(["s6-rc-db", "-c", "/tmp/image/etc/s6/db/current", "contents", "tend"])).sort()).toEqual(["tend-db", "tend-ready", "tend-reloader"]);
    expect(await upList()).toEqual(live);
    expect(await current()).toBe(liveDb);
  });

  it("plans an image root it compiled as converged without any s6-rc tool: it reads the note beside the database", async () => {
    expect(names(await host.mustExec(["cat", "/tmp/image/etc/s6/db/tend-g1-a.sources"])).slice(1)).toEqual([
      expect.stringMatching(/^service tend-db [0-9a-f]{32}$/),
      expect.stringMatching(/^service tend-ready [0-9a-f]{32}$/),
      expect.stringMatching(/^service tend-reloader [0-9a-f]{32}$/),
      expect.stringMatching(/^service tend-worker [0-9a-f]{32}$/),
      "bundle tend-db",
      "bundle tend-ready",
      "bundle tend-reloader",
    ]);
    const tools = ["s6-rc", "s6-rc-db", "s6-rc-compile", "s6-rc-update"];
    await host.mustSh(tools.map((tool) => `mv /usr/bin/${tool} /usr/bin/${tool}.away`).join(" && "));
    try {
      const plan = await host.expectTend(["plan", "-f", SPEC, "--init", "s6", "--root", "/tmp/image", "--detailed-exitcode"], { exitCode: 0 });
      expect(plan).toContain("0 to add, 0 to change, 0 to remove");
    } finally {
      await host.mustSh(tools.map((tool) => `mv /usr/bin/${tool}.away /usr/bin/${tool}`).join(" && "));
    }
  });

  it("in an image root, sources newer than the database boot uses (a compile that failed after the writes) are drift, and the next apply compiles", async () => {
    const IMAGE_SPEC = "/spec/image.yaml";
    const imaged = (version: string) => doc(`type: Service\nname: imaged\nexec: "sleep 10000${version}"\nrestart: always`);
    const applyImage = (version: string, exitCode = 0) =>
      host.writeFile(IMAGE_SPEC, spec(...fleetDocs(fleet), imaged(version))).then(() => host.expectTend(["apply", "-f", IMAGE_SPEC, "--init", "s6", "--root", "/tmp/image"], { exitCode }));
    const planImage = (exitCode: number) => host.expectTend(["plan", "-f", IMAGE_SPEC, "--init", "s6", "--root", "/tmp/image", "--detailed-exitcode"], { exitCode });
    await applyImage("1");
    const compiled = (await host.mustExec(["readlink", "/tmp/image/etc/s6/db/current"])).trim();
    await host.mustSh("mv /usr/bin/s6-rc-compile /usr/bin/s6-rc-compile.away");
    try {
      await applyImage("2", 1);
    } finally {
      await host.mustSh("mv /usr/bin/s6-rc-compile.away /usr/bin/s6-rc-compile");
    }
    expect(await host.readFile("/tmp/image/etc/s6/sv/tend-imaged/run")).toContain("exec /usr/bin/env sleep 100002\n");
    expect((await host.mustExec(["readlink", "/tmp/image/etc/s6/db/current"])).trim()).toBe(compiled);
    expect(await planImage(2)).toContain(
      `! service:imaged drifted: /etc/s6/db/${compiled}, the database boot uses, holds an older definition of tend-imaged than /etc/s6/sv/tend-imaged: apply compiles it again`,
    );
    await applyImage("2");
    expect((await host.mustExec(["readlink", "/tmp/image/etc/s6/db/current"])).trim()).not.toBe(compiled);
    expect(await planImage(0)).toContain("0 to add, 0 to change, 0 to remove");
  });

  describe("exec forms: s6-supervise supervises and signals the program itself, and nothing of it outlives a stop", () => {
    const FORMS = Object.keys(EXEC_FORMS) as ExecForm[];
    const nameOf = (form: ExecForm) => `form-${form.toLowerCase()}`;
    const TRIGGER = (content: string) => doc(`type: File\nname: trigger\npath: /etc/demo-trigger\ncontent: "${content}\\n"`);
    const CONF = (content: string) => doc(`type: File\nname: democonf\npath: /etc/demo-conf\ncontent: "${content}\\n"`);
    /** One service per form; all but the pipeline reload on HUP (plan refuses that for a pipeline, below). */
    const formService = (form: ExecForm, extra = "") => {
      const reload = form === "pipeline" ? "" : '\nreloadSignal: HUP\nreloadOn: ["file:democonf"]';
      return doc(`type: Service\nname: ${nameOf(form)}\nexec: ${JSON.stringify(EXEC_FORMS[form](nameOf(form)))}\nrestart: always\nrestartOn: ["file:trigger"]${reload}${extra}`);
    };
    const formSpec = (options: { trigger?: string; conf?: string; extra?: string } = {}) =>
      spec(...fleetDocs(fleet), TRIGGER(options.trigger ?? "one"), CONF(options.conf ?? "one"), ...FORMS.map((form) => formService(form, options.extra)));
    const apply = async (text: string) => {
      await host.writeFile(SPEC, text);
      return host.expectTend(["apply", "-f", SPEC]);
    };
    /** The pid s6-supervise supervises when it runs the service and wants it up, else "". */
    const pidOf = async (name: string) => {
      const status = await svstat(name);
      return status.up && status.wantedUp ? String(status.pid) : "";
    };
    const { liveOf, snapshot, oneEach, expectOnlyNew } = formProcesses({ host: () => host, forms: FORMS, nameOf, supervisedPid: (form) => pidOf(nameOf(form)), pipelineShares: "session" });
    let pids = new Map<ExecForm, string>();

    it("adds each form: the supervised pid is the program (for a pipeline, the shell leading its session)", async () => {
      const output = await apply(formSpec());
      for (const form of FORMS) expect(output).toContain(`service:${nameOf(form)}: verified`);
      pids = await oneEach();
      await expectOnlyNew(pids, new Map(FORMS.map((form) => [form, []])));
      const quoted = pids.get("quotedArgs")!;
      expect((await host.mustSh(`tr '\\0' '\\n' < /proc/${quoted}/cmdline`)).split("\n")).toEqual(["/bin/sh", "/opt/demo/bin/demo", "form-quotedargs", "", "daemon off;", ""]);
      expect(await host.mustSh(`ps -o args= -p ${pids.get("pipeline")}`)).toBe(`/bin/sh -c ${EXEC_FORMS.pipeline("form-pipeline")}\n`);
      expect(await host.mustSh(`ps -o args= -p ${pids.get("shellThenExec")}`)).toBe("/bin/sh /opt/demo/bin/demo form-shellthenexec\n");
      const run = await host.readFile("/etc/s6/sv/tend-form-quotedargs/run");
      expect(run.endsWith(`echo $$ > supervise/tend-session || exit 1\nexec /opt/demo/bin/demo form-quotedargs '' 'daemon off;'\n`)).toBe(true);
      await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"], { exitCode: 0 });
    });

    it("kill: s6-supervise starts the program again, and ./finish ends everything of the old one", async () => {
      const old = await snapshot();
      for (const form of FORMS) await host.mustSh(`kill -9 ${pids.get(form)}`);
      const next = await oneEach(pids);
      await expectOnlyNew(next, old);
      pids = next;
    });

    it("restart on change (s6-rc-update's conversion file): the old program is gone, exactly one new one runs", async () => {
      const old = await snapshot();
      const output = await apply(formSpec({ extra: "\nenv:\n  GREETING: changed" }));
      expect(output).toMatch(/restarting tend-form-pipeline tend-form-quotedargs tend-form-scriptpath tend-form-shellloop tend-form-shellthenexec/);
      for (const form of FORMS) expect(output).toContain(`service:${nameOf(form)}: changed, restarted`);
      const next = await oneEach(pids);
      await expectOnlyNew(next, old);
      for (const form of FORMS.filter((f) => f !== "shellLoop")) expect((await demoStarts(host, nameOf(form))).at(-1)).toBe(`start ${(await livePids(host, nameOf(form)))[0]} changed`);
      pids = next;
    });

    it("restartOn: a changed file restarts every form (s6-svc -dwD, then up), exactly one new process each", async () => {
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
        expect(output).toContain(`service:${nameOf(form)}: changed, reloaded (file:democonf changed, reloadOn matched)`);
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
      const pipelineReloads = doc(`type: Service\nname: piped\nexec: ${JSON.stringify(EXEC_FORMS.pipeline("piped"))}\nreloadSignal: HUP\nreloadOn: ["file:democonf"]`);
      await host.writeFile(SPEC, `${formSpec({ extra: "\nenv:\n  GREETING: changed", trigger: "two", conf: "two" })}---\n${pipelineReloads}`);
      const output = await host.expectTend(["plan", "-f", SPEC], { exitCode: 1 });
      expect(output).toContain(
        "error TEND_INVALID_FIELD: service:piped has an invalid `reloadSignal`: `exec` is shell syntax that runs as `/bin/sh -c` without handing over to its last command (a pipeline, a background job or a compound command last), so s6-svc would send HUP to that shell",
      );
      expect(output).toMatch(/at .*service:piped, field reloadSignal/);
      expect((await host.exec(["test", "-e", "/etc/s6/sv/tend-piped"])).exitCode).toBe(1);
    });

    it("desired stopped: no process of any form runs", async () => {
      await apply(formSpec({ extra: "\nenv:\n  GREETING: changed\ndesired: {state: stopped, enabled: true}", trigger: "two", conf: "two" }));
      for (const form of FORMS) {
        expect(await liveOf(form), nameOf(form)).toEqual([]);
        expect(await svstat(nameOf(form))).toMatchObject({ up: false, wantedUp: false });
      }
      await apply(formSpec({ extra: "\nenv:\n  GREETING: changed", trigger: "two", conf: "two" }));
      pids = await oneEach();
    });

    it("removal: no process of any form runs once apply returns", async () => {
      const old = await snapshot();
      expect([...old.values()].flat()).toHaveLength(FORMS.length + 1);
      await host.writeFile(SPEC, fleetSpec(fleet));
      await host.expectTend(["apply", "-f", SPEC]);
      for (const form of FORMS) {
        expect(await liveOf(form), nameOf(form)).toEqual([]);
        expect((await host.exec(["test", "-e", `/etc/s6/sv/tend-${nameOf(form)}`])).exitCode).toBe(1);
      }
      expect(await liveServices()).not.toContain("tend-form-pipeline");
    });

    it('restart = "no" with restartOn: a trigger restarts it and it stays up (s6-svc -r would have left it down: its finish exits 125)', async () => {
      const onceler = (trigger: string) => spec(...fleetDocs(fleet), TRIGGER(trigger), doc('type: Service\nname: onceler\nexec: /opt/demo/bin/demo onceler\nrestartOn: ["file:trigger"]'));
      await apply(onceler("one"));
      const first = await host.waitFor(() => pidOf("onceler"), { timeoutMs: 10_000, what: "onceler to run" });
      const output = await apply(onceler("two"));
      expect(output).toContain("service:onceler: changed, restarted (file:trigger changed, restartOn matched)");
      expect(output).toContain("service:onceler: verified");
      const second = await pidOf("onceler");
      expect(second).not.toBe(first);
      expect(await livePids(host, "onceler")).toEqual([second]);
      expect(await startedPids(host, "onceler")).toHaveLength(2);
    });

    it('restart = "no": the pipeline\'s shell killed, its whole session ends and stays down', async () => {
      const lone = doc(`type: Service\nname: lone\nexec: ${JSON.stringify(EXEC_FORMS.pipeline("lone"))}`);
      await host.writeFile(SPEC, spec(...fleetDocs(fleet), lone));
      await host.expectTend(["apply", "-f", SPEC]);
      const leader = await pidOf("lone");
      expect(await livePids(host, "lone")).toHaveLength(1);
      expect(await livePids(host, "lone-tail")).toHaveLength(1);
      await host.mustSh(`kill -9 ${leader}`);
      await host.waitFor(async () => (await livePids(host, "lone")).length + (await livePids(host, "lone-tail")).length === 0, {
        timeoutMs: 10_000,
        what: "the rest of the pipeline to end with its shell",
      });
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(await svstat("lone")).toMatchObject({ up: false, wantedUp: false });
      expect(await startedPids(host, "lone")).toHaveLength(1);
      await host.writeFile(SPEC, fleetSpec(fleet));
      await host.expectTend(["apply", "-f", SPEC]);
    });
  });

  describe("read-only commands change nothing (G2)", () => {
    const conf = (content: string) => doc(`type: File\nname: pure-conf\npath: /etc/pure/pure.conf\ncontent: "${content}\\n"`);
    const PURE = doc('type: Service\nname: pure\nexec: /opt/demo/bin/demo pure\nrestart: always\nreloadSignal: HUP\nreloadOn: ["File[pure-conf]"]\nenv: {API_TOKEN: abcd1234}');
    /** What a plan may ask s6-rc and s6: what is up, what the live database holds, and s6-svstat of each service. */
    const READ_ONLY = /^(s6-rc -b -l \/run\/s6-rc -a list|s6-rc-db -b (-l \/run\/s6-rc|-c \S+) (list services|contents tend)|\/bin\/sh -c for d in "\$@"; do .* s6-svstat -o \S+ -- "\$d" .*; done sh( \/\S+)+|s6-svstat -o \S+ -- \/\S+)$/;

    it("plan, plan --diff and observe run only s6-rc's and s6's queries and change no file, converged or not; the same spy sees all that apply does", async () => {
      const changedText = spec(conf("a = 2"), PURE.replace("abcd1234", "efgh5678"));
      const applied = await provePurePlans(host, { spec: "/spec/pure.yaml", docs: [conf("a = 1"), PURE], changed: "/spec/pure-changed.yaml", changedText, queries: READ_ONLY });
      // Its env holds a token: the run script s6-rc compiled is root's to read alone.
      expect(await host.mustExec(["stat", "-c", "%a", "/etc/s6/sv/tend-pure/run"])).toBe("700\n");
      expect(applied.changes.filter((call) => call.includes('"/etc/pure/')).length).toBeGreaterThan(0);
      expect(applied.changes.filter((call) => call.includes('"/etc/s6/sv/tend-pure/')).length).toBeGreaterThan(0);
      expect(applied.commands.map((argv) => argv.join(" ")).filter((line) => !READ_ONLY.test(line))).toEqual(expect.arrayContaining([expect.stringMatching(/^s6-rc-compile /), expect.stringMatching(/^s6-rc-update /)]));
      await host.writeFile("/spec/pure.yaml", NOTHING);
      await host.expectTend(["apply", "-f", "/spec/pure.yaml"]);
    });
  });

  describe("batching: the same s6-rc commands for 3 services as for 60", () => {
    /**
     * The commands an apply of `docs` starts, each run of the wave's names and folders shown as
     * one "…", and the fresh database's folder as DB; a command repeated (the verification's probes)
     * shown once. Left out: `sync --file-system`, which replaces the fsync of each file once a batch
     * has many (one per file system, not per service).
     */
    const commands = async (docs: string[]) => {
      await host.writeFile("/spec/batch.yaml", spec(...docs));
      const all = await commandsOfRun(host, ["apply", "-f", "/spec/batch.yaml"], /(^|\/)tend-b\d+(\/|$)/);
      return withoutRepeats(all.filter((command) => !command.startsWith("sync ")).map((command) => command.replace(/\/etc\/s6\/db\/[^ ]+/g, "DB")));
    };

    const LIST = "s6-rc -b -l /run/s6-rc -a list";
    const SERVICES = "s6-rc-db -b -l /run/s6-rc list services";
    /** One shell asks s6-svstat of every service in turn (observation, verification). */
    const STATES = `sh -c for d in "$@"; do printf '%s ' "$d"; s6-… sh …`;
    const COMPILE = "s6-rc-compile DB /etc/s6/sv";
    /** The verification: the services' states over the settle window, then the check's lists and states. */
    const VERIFY = [STATES, LIST, SERVICES, STATES];

    it("adding, changing and removing 3 services or 60 start the same commands", async () => {
      // From a database tend compiled, as every later apply finds it (before the first, observing asks s6-rc-db for the boot bundle).
      await commands(serviceWave(1, 0));
      await commands([]);
      const runs = async (n: number) => {
        const add = await commands(serviceWave(n, 1));
        expect(await livePids(host, `b${n - 1}`)).toHaveLength(1);
        const change = await commands(serviceWave(n, 2));
        expect(await roundsRunning(host, `b${n - 1}`)).toEqual(["2"]);
        const remove = await commands([]);
        expect(await livePids(host, `b${n - 1}`)).toEqual([]);
        return { add, change, remove };
      };
      const three = await runs(3);
      expect(await runs(60)).toEqual(three);
      // Added: one compile of the source folder into a fresh database, one switch to it, one
      // change up of the wave, one shell asking s6-supervise of each to be up.
      expect(three.add).toEqual(["flock -n 3", LIST, SERVICES, COMPILE, "s6-rc-update -b -l /run/s6-rc DB", "s6-rc -b -l /run/s6-rc -t 60000 -u -- change …", 'sh -c for d in "$@"; do… sh …', ...VERIFY]);
      // Changed: one switch whose conversion file restarts the wave.
      expect(three.change).toEqual(["flock -n 3", LIST, SERVICES, STATES, COMPILE, SERVICES, "s6-rc-update -b -l /run/s6-rc -f DB DB", "s6-rc -b -l /run/s6-rc -t 60000 -u -- change …", ...VERIFY]);
      // Removed: one change down of the wave, then the database without it.
      // What s6-rc -d would bring down is asked first: nothing the apply keeps, so it runs.
      expect(three.remove).toEqual(["flock -n 3", SERVICES, "s6-rc-db -b -l /run/s6-rc -d all-dependencies …", "s6-rc -b -l /run/s6-rc -t 60000 -d -- change …", COMPILE, "s6-rc-update -b -l /run/s6-rc DB"]);
    });
  });

  it('restart "on_failure" and "no" under s6-rc: a killed program comes back only on_failure, a clean exit stays down, and the next apply starts what stayed down', async () => {
    const path = "/spec/policies.yaml";
    const docs = [doc("type: Service\nname: pf\nexec: /opt/demo/bin/demo pf\nrestart: on_failure"), doc('type: Service\nname: pn\nexec: /opt/demo/bin/demo pn\nrestart: "no"')];
    const one = async (name: string) => {
      const pids = await livePids(host, name);
      expect(pids).toHaveLength(1);
      return pids[0]!;
    };
    const settled = () => new Promise((resolve) => setTimeout(resolve, 2_500));
    await applySpec(host, path, docs);
    const [failing, once] = [await one("pf"), await one("pn")];
    await host.mustExec(["kill", "-KILL", failing, once]);
    await host.waitFor(async () => (await livePids(host, "pf")).some((pid) => pid !== failing), { timeoutMs: 15_000, what: "s6-supervise to restart tend-pf after SIGKILL" });
    await settled();
    expect(await livePids(host, "pn")).toEqual([]);
    const restarted = await one("pf");
    // demo exits 0 on USR1: a clean exit, which on_failure leaves down.
    await host.mustExec(["kill", "-USR1", restarted]);
    await host.waitFor(async () => (await livePids(host, "pf")).length === 0, { timeoutMs: 15_000, what: "tend-pf to exit" });
    await settled();
    expect(await livePids(host, "pf")).toEqual([]);
    const plan = await planSpec(host, path, 2);
    expect(plan).toMatch(/~ service:pf {2}start/);
    expect(plan).toMatch(/~ service:pn {2}start/);
    await applySpec(host, path, docs);
    expect([await one("pf"), await one("pn")]).not.toContain(restarted);
    await planSpec(host, path, 0);
  });

  it("fails plan for a timer: this host has /etc/cron.d but no cron daemon that would run it", () => proveTimerNeedsCron(host, "/spec/timer.yaml", []));

  it("verifies a service it started and one it restarted while the wall clock steps a year forward, then back (reliability #22)", () => proveVerifyAcrossClockStep(host, "/spec/clockstep.yaml", []), 120_000);
  it("restarts a service whose init runs an older definition than the file on disk, without rewriting it", () => proveOlderDefinitionRestart(host, "/spec/olddef.yaml", [], "/etc/s6/sv/tend-olddef/run"), 120_000);

  it("sets back in place a mode loosened by hand: the service's own file without a restart, a File it restarts on with one", () => proveModeDrift(host, "/spec/modes.yaml", [], "/etc/s6/sv/tend-modes/run"), 120_000);

  it("restarts a service whose program was replaced on disk, unless restartOnUpgrade is false", () => proveStaleBuildRestart(host, "/spec/stale.yaml", []), 120_000);

  it("keeps a restart that a later failure stopped in the ledger, and the next apply carries it out", () => proveRestartLedger(host, "/spec/ledger.yaml", []), 120_000);

  it("tells before a reboot which services would not come back, and the reboot proves it", () =>
    proveBootTruth(host, { specPath: "/spec/boot.yaml", base: [], offWhy: "it is not in the tend bundle of /etc/s6/db/current, the database boot uses" }), 240_000);

  it("a seeded random walk of edits of three services converges at every step: the next plan is clean and the process table agrees", () => proveRandomWalk(host, "/spec/walk.yaml", [], WALK.seed, WALK.steps, { dependentsRestart: true, byHand: BY_HAND }), WALK_TIMEOUT_MS);
  it("a definition deleted by hand while the service runs: apply writes it back and restarts the service", () => proveDeletedDefinition(host, "/spec/deldef.yaml", [], "/etc/s6/sv/tend-deldef/run"), 120_000);

  it("names the services s6-rc-update restarts with a changed one and verifies them: one that does not come back fails the apply", () => proveDependentsRestart(host, "/spec/cascade.yaml", []), 120_000);
  it("removes the service a running chain of two comes after: the chain runs on, and the one whose definition changed restarts with the one after it", () => proveRemovedHeadOfChain(host, "/spec/chain.yaml", []), 120_000);

  describe("a tend service in every state × enabled", () => {
    afterAll(() => applySpec(host, "/spec/tour.yaml", []));

    it.each(EVERY_DESIRED_STATE)("converges to %s, enabled %s: s6, the boot bundle and the process table agree, and the next plan is clean", (state, enabled) =>
      convergeService(host, "/spec/tour.yaml", [], "tour", [state, enabled], async () => {
        expect((await svstat("tour")).up).toBe(state === "running");
        expect(await bootBundle()).toEqual(enabled ? ["tend-tour"] : []);
      }),
    );
  });

  it("leaves nothing in /var/lib/tend but the lock, the state and the edited run file it replaced", async () => {
    expect(await host.mustSh("ls -A /var/lib/tend")).toBe("backups\nlock\nstate.json\n");
    // The drift test above restored an edited run file: apply keeps the edited copy, and nothing
    // else but the copies of the definitions the random walk's admin edited.
    const kept = await withoutWalkCopies(host, "/var/lib/tend/backups");
    expect(kept).toEqual([expect.stringMatching(/^\.\/[^/]+\/file\/etc\/s6\/sv\/tend-web\/run$/)]);
    expect(await host.readFile(`/var/lib/tend/backups/${kept[0]!.slice(2)}`)).toContain("exec sleep 5\n");
  });
});
