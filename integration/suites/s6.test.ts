import {
  checkExit,
  SIGNALS,
  ServiceSchema,
  type ApplyContext,
  type Command,
  type CommandResult,
  type HostFiles,
  type Operation,
  type ProviderDefinition,
  type ReadContext,
  type Runner,
  type Service,
} from "@tend/core";
import { applyContext, renderContext } from "@tend/testkit";
import { startHost, type TestHost } from "@tend/testkit/harness";
import s6Provider from "@tend/provider-s6";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO, demoStarts } from "../support/demo-daemon.js";
import { EXEC_FORMS, formProcesses, hupsReceived, livePids, startedPids, type ExecForm } from "../support/exec-forms.js";

/**
 * The service directories @tend/provider-s6 renders, run for real by Debian's s6-svscan (PID 1 of
 * the s6 image). Debian has no s6-rc, so this suite does by hand what s6-rc-compile does for a
 * longrun (copy `run` and `finish` into a service directory of the scan directory) and proves what
 * s6 itself decides: the restart policy of `finish`, the environment and exec of `run`, the
 * signals a reload sends, the provider's probe, and, for every form an `exec` is written in, that
 * the program is the process s6 supervises and signals and that `./finish` leaves nothing of it
 * behind. The provider's own s6 commands run here; its s6-rc ones are s6rc.test.ts's, which
 * covers the full s6-rc path.
 */

const provider: ProviderDefinition = s6Provider;
const SCAN = "/run/service";

function service(fields: Omit<Service, "type">): Service {
  return ServiceSchema.parse({ type: "service", ...fields });
}

/**
 * Runs the provider's commands inside the container, checking exit codes as production does.
 * Debian has no s6-rc: its commands are recorded in `skipped` and answered with success.
 */
class ContainerRunner implements Runner {
  readonly ran: string[][] = [];
  readonly skipped: string[][] = [];
  constructor(private readonly host: TestHost) {}
  async run(command: Command): Promise<CommandResult> {
    if (command.input !== undefined) throw new Error("ContainerRunner cannot pass stdin");
    if (command.argv[0]!.startsWith("s6-rc")) {
      this.skipped.push(command.argv);
      return { exitCode: 0, stdout: "", stderr: "" };
    }
    this.ran.push(command.argv);
    const result = await this.host.exec(command.argv, { ...(command.env ? { env: command.env } : {}), timeoutMs: command.timeoutMs ?? 60_000 });
    return checkExit(command, result);
  }
}

/** The container's files, read through commands (paths as arguments, never through a shell). */
class ContainerFiles implements HostFiles {
  constructor(private readonly host: TestHost) {}
  real(path: string): string {
    return path;
  }
  private async ok(argv: string[]): Promise<boolean> {
    return (await this.host.exec(argv)).exitCode === 0;
  }
  exists(path: string): Promise<boolean> {
    return this.ok(["/bin/sh", "-c", 'test -e "$1" || test -L "$1"', "sh", path]);
  }
  isDirectory(path: string): Promise<boolean> {
    return this.ok(["test", "-d", path]);
  }
  async readFile(path: string): Promise<string | null> {
    if (!(await this.ok(["/bin/sh", "-c", 'test -f "$1" && ! test -L "$1"', "sh", path]))) return null;
    return this.host.readFile(path);
  }
  async readLink(path: string): Promise<string | null> {
    const result = await this.host.exec(["readlink", path]);
    return result.exitCode === 0 ? result.stdout.replace(/\n$/, "") : null;
  }
  async readDir(path: string): Promise<string[] | null> {
    const result = await this.host.exec(["ls", "-1A", path]);
    return result.exitCode === 0 ? result.stdout.split("\n").filter(Boolean).sort() : null;
  }
}

describe("rendered s6 service directories under Debian's s6-svscan", () => {
  let host: TestHost;
  let read: ReadContext;

  beforeAll(async () => {
    host = await startHost("s6");
    await host.writeFile("/opt/demo/bin/demo", DEMO, { mode: 0o755 });
    // The provider addresses a service as s6-rc does, through the live dir's servicedirs; here
    // that is the scan directory itself.
    await host.mustExec(["mkdir", "-p", "/run/s6-rc"]);
    await host.mustExec(["ln", "-s", SCAN, "/run/s6-rc/servicedirs"]);
    read = { ...renderContext({ init: "s6" }), run: new ContainerRunner(host), files: new ContainerFiles(host) };
  });

  afterAll(async () => {
    await host?.stop();
  });

  /**
   * Writes what the provider renders for `svc` into /etc/s6/sv, as apply would, then gives s6 the
   * service directory s6-rc-compile would make of it (its `run` and `finish`) and rescans.
   * `extra` files go into the service directory too (an admin's `notification-fd`).
   */
  async function deploy(svc: Service, extra: Record<string, string> = {}): Promise<void> {
    const artifacts = provider.render(svc, renderContext({ init: "s6" }));
    for (const artifact of artifacts) {
      if (artifact.store === "directory") await host.mustExec(["mkdir", "-p", artifact.path]);
      else await host.writeFile(artifact.path, artifact.content, { mode: artifact.mode ?? 0o644 });
    }
    const source = `/etc/s6/sv/tend-${svc.name}`;
    const dir = `${SCAN}/.tend-${svc.name}.new`;
    await host.mustExec(["mkdir", "-p", dir]);
    for (const file of ["run", "finish"]) await host.mustExec(["/bin/sh", "-c", 'if [ -e "$1/$3" ]; then cp -p "$1/$3" "$2/$3"; fi', "sh", source, dir, file]);
    // Through a shell, not host.writeFile: /run is a tmpfs, which Docker's copy API does not reach.
    for (const [name, content] of Object.entries(extra)) await host.mustExec(["/bin/sh", "-c", 'printf %s "$2" > "$1"', "sh", `${dir}/${name}`, content]);
    await host.mustExec(["mv", dir, `${SCAN}/tend-${svc.name}`]);
    await host.mustExec(["s6-svscanctl", "-a", SCAN]);
  }

  /** Writes what the provider renders for `svc` into /etc/s6/sv, then replaces `run` and `finish` of its live service directory, as s6-rc-update does. */
  async function redeploy(svc: Service): Promise<void> {
    for (const artifact of provider.render(svc, renderContext({ init: "s6" }))) {
      if (artifact.store !== "directory") await host.writeFile(artifact.path, artifact.content, { mode: artifact.mode ?? 0o644 });
    }
    for (const file of ["run", "finish"]) {
      await host.mustExec(["/bin/sh", "-c", 'cp -p "$1/$3" "$2/$3.new" && mv "$2/$3.new" "$2/$3"', "sh", `/etc/s6/sv/tend-${svc.name}`, `${SCAN}/tend-${svc.name}`, file]);
    }
  }

  /** `s6-svstat -o up,wantedup,pid,exitcode` as words. */
  async function svstat(name: string): Promise<{ up: boolean; wantedUp: boolean; pid: number; exitCode: number }> {
    const [up, wantedUp, pid, exitCode] = (await host.mustExec(["s6-svstat", "-o", "up,wantedup,pid,exitcode", `${SCAN}/tend-${name}`])).trim().split(" ");
    return { up: up === "true", wantedUp: wantedUp === "true", pid: Number(pid), exitCode: Number(exitCode) };
  }

  /** An apply context whose commands run in the container (s6-rc's skipped). */
  async function liveContext(): Promise<ApplyContext & { run: ContainerRunner }> {
    return { ...(await applyContext({ init: "s6" })), run: new ContainerRunner(host) };
  }

  const lines = async (path: string) => (await host.sh(`cat ${path} 2>/dev/null`)).stdout.split("\n").filter(Boolean);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("runs the command with its environment, exec'd so s6 supervises the program itself", async () => {
    const message = `it's $HOME \`id\` "q" \\ 100% *`;
    await deploy(
      service({ name: "env", exec: `printf '%s|%s' "$MESSAGE" "$PLAIN" > /tmp/env.out; exec sleep 1000`, restart: "always", env: { MESSAGE: message, PLAIN: "info" } }),
    );
    await host.waitFor(async () => (await lines("/tmp/env.out")).length > 0, { what: "tend-env to write its environment" });
    expect(await host.readFile("/tmp/env.out")).toBe(`${message}|info`);
    const status = await svstat("env");
    expect(status.up).toBe(true);
    expect((await host.mustExec(["cat", `/proc/${status.pid}/comm`])).trim()).toBe("sleep");
  });

  it('restart "always" (a finish that only ends the session): s6 respawns the program after every exit', async () => {
    await deploy(service({ name: "always", exec: "echo run >> /tmp/always.count; sleep 0.3; exit 1", restart: "always" }));
    await host.waitFor(async () => (await lines("/tmp/always.count")).length >= 3, { what: "tend-always to be respawned twice", timeoutMs: 20_000 });
    expect(await host.readFile("/etc/s6/sv/tend-always/finish")).not.toContain("exit 125");
    expect((await svstat("always")).wantedUp).toBe(true);
  });

  it('restart "on_failure": a failure is restarted, a clean exit is not', async () => {
    await deploy(service({ name: "fails", exec: "echo run >> /tmp/fails.count; sleep 0.3; exit 1", restart: "on_failure" }));
    await deploy(service({ name: "succeeds", exec: "echo run >> /tmp/succeeds.count; sleep 0.3; exit 0", restart: "on_failure" }));
    await host.waitFor(async () => (await lines("/tmp/fails.count")).length >= 3, { what: "tend-fails to be restarted", timeoutMs: 20_000 });
    await host.waitFor(async () => !(await svstat("succeeds")).wantedUp, { what: "tend-succeeds to be left down" });
    await sleep(2_500);
    expect(await lines("/tmp/succeeds.count")).toEqual(["run"]);
    expect(await svstat("succeeds")).toMatchObject({ up: false, wantedUp: false, exitCode: 0 });
    expect((await svstat("fails")).wantedUp).toBe(true);
  });

  it('restart "no": finish exits 125 and s6 leaves the service down, whatever the exit', async () => {
    await deploy(service({ name: "once", exec: "echo run >> /tmp/once.count; sleep 0.3; exit 3" }));
    await host.waitFor(async () => !(await svstat("once")).wantedUp, { what: "tend-once to be left down" });
    await sleep(2_500);
    expect(await lines("/tmp/once.count")).toEqual(["run"]);
    expect(await svstat("once")).toMatchObject({ up: false, wantedUp: false, exitCode: 3 });
    expect((await host.mustExec(["s6-svstat", `${SCAN}/tend-once`])).trim()).toMatch(/^down \(exitcode 3\) \d+ seconds, normally up, ready/);
  });

  it("delivers every reloadSignal with the s6-svc command the provider's reload runs, without a restart", async () => {
    const traps = SIGNALS.map((signal) => `trap 'echo ${signal} >> /tmp/signals.log' ${signal};`).join(" ");
    await deploy(service({ name: "signals", exec: `${traps} : > /tmp/signals.ready; while :; do sleep 0.1; done`, restart: "always" }));
    await host.waitFor(async () => (await host.sh("test -e /tmp/signals.ready")).exitCode === 0, { what: "tend-signals to set its traps" });
    const before = await svstat("signals");
    for (const signal of SIGNALS) {
      const ctx = await liveContext();
      const resource = service({ name: "signals", exec: "/bin/true", reloadSignal: signal, reloadOn: ["file:conf"] });
      await provider.apply({ key: "service:signals", action: "change", resource, ops: ["reload"], filesChanged: false, reasons: [] }, ctx);
      expect(ctx.run.ran.map((argv) => argv.slice(0, 2))).toEqual([["/bin/sh", "-c"]]); // one s6-svc loop
      await host.waitFor(async () => (await lines("/tmp/signals.log")).includes(signal), { what: `tend-signals to trap SIG${signal}` });
    }
    expect(await lines("/tmp/signals.log")).toEqual([...SIGNALS]);
    expect((await svstat("signals")).pid).toBe(before.pid);
  });

  it("probes: a steady program keeps its identity across the settle window, a crash loop does not", async () => {
    await deploy(service({ name: "steady", exec: "sleep 1000", restart: "always" }));
    await deploy(service({ name: "crashing", exec: "sleep 0.5; exit 1", restart: "always" }));
    const resources = [service({ name: "steady", exec: "sleep 1000" }), service({ name: "crashing", exec: "sleep 0.5; exit 1" })];
    await host.waitFor(async () => (await provider.probe!(resources, read)).get("service:steady")?.up, { what: "tend-steady to be up" });
    const first = await provider.probe!(resources, read);
    await sleep(2_000);
    const second = await provider.probe!(resources, read);
    expect(second.get("service:steady")).toMatchObject({ up: true, identity: first.get("service:steady")!.identity });
    const a = first.get("service:crashing")!;
    const b = second.get("service:crashing")!;
    expect(a.up && b.up && a.identity === b.identity).toBe(false);
    expect(second.get("service:steady")!.detail).toMatch(/^\/run\/s6-rc\/servicedirs\/tend-steady: up \(pid \d+\) \d+ seconds$/);
  });

  it("probes a program with a notification-fd as up only once it notified readiness", async () => {
    await deploy(service({ name: "notify", exec: "sleep 2; echo >&3; exec sleep 1000", restart: "always" }), { "notification-fd": "3\n" });
    const resources = [service({ name: "notify", exec: "sleep 1000" })];
    await host.waitFor(async () => (await svstat("notify")).up, { what: "tend-notify to start" });
    const early = (await provider.probe!(resources, read)).get("service:notify")!;
    expect(early).toMatchObject({ up: false, detail: expect.stringContaining("not ready yet") });
    const ready = await host.waitFor(async () => {
      const probe = (await provider.probe!(resources, read)).get("service:notify")!;
      return probe.up ? probe : undefined;
    }, { what: "tend-notify to notify readiness", timeoutMs: 10_000 });
    expect(ready?.identity).toBe(early.identity);
  });

  describe("exec forms: s6-supervise supervises and signals the program itself, and ./finish leaves nothing of it", () => {
    const FORMS = Object.keys(EXEC_FORMS) as ExecForm[];
    const nameOf = (form: ExecForm) => `plain-${form.toLowerCase()}`;
    const formService = (form: ExecForm, env: Record<string, string> = {}) =>
      service({ name: nameOf(form), exec: EXEC_FORMS[form](nameOf(form)), restart: "always", ...(form === "pipeline" ? {} : { reloadSignal: "HUP" as const }), env });
    const pidOf = async (form: ExecForm) => {
      const status = await svstat(nameOf(form));
      return status.up && status.wantedUp ? String(status.pid) : "";
    };
    const { liveOf, snapshot, oneEach, expectOnlyNew } = formProcesses({ host: () => host, forms: FORMS, nameOf, supervisedPid: pidOf, pipelineShares: "session" });
    /** What apply runs for `op` on every form at once: one batch, its s6 commands in the container. */
    async function applyOp(op: Operation, env: Record<string, string> = {}): Promise<ContainerRunner> {
      const ctx = await liveContext();
      const changes = FORMS.map((form) => ({ key: `service:${nameOf(form)}`, action: "change" as const, resource: formService(form, env), ops: [op], filesChanged: false, reasons: [] }));
      const failures = await provider.applyBatch!(op === "reload" ? changes.filter((c) => !c.key.endsWith("pipeline")) : changes, ctx);
      expect(failures).toEqual(new Map());
      return ctx.run;
    }
    let pids = new Map<ExecForm, string>();

    it("runs each form as the process s6-supervise supervises (a pipeline's shell leads its session)", async () => {
      for (const form of FORMS) await deploy(formService(form));
      pids = await oneEach();
      await expectOnlyNew(pids, new Map(FORMS.map((form) => [form, []])));
      expect(await host.mustSh(`cat /run/service/tend-${nameOf("pipeline")}/supervise/tend-session`)).toBe(`${pids.get("pipeline")}\n`);
    });

    it("kill: s6-supervise starts the program again, and ./finish ends everything of the old one", async () => {
      const old = await snapshot();
      for (const form of FORMS) await host.mustSh(`kill -9 ${pids.get(form)}`);
      const next = await oneEach(pids);
      await expectOnlyNew(next, old);
      pids = next;
    });

    it("restart on change and restartOn (what apply runs: s6-svc -dwD, then -u): the old program is gone, exactly one new one runs", async () => {
      const old = await snapshot();
      for (const form of FORMS) await redeploy(formService(form, { GREETING: "changed" }));
      const run = await applyOp("restart");
      expect(run.ran.map((argv) => /s6-svc [^"]*--/.exec(argv[2]!)?.[0])).toEqual(["s6-svc -d -wD -T 20000 --", "s6-svc -u --"]);
      const next = await oneEach(pids);
      await expectOnlyNew(next, old);
      for (const form of FORMS.filter((f) => f !== "shellLoop")) expect((await demoStarts(host, nameOf(form))).at(-1)).toBe(`start ${(await livePids(host, nameOf(form)))[0]} changed`);
      pids = next;
    });

    it("reload with reloadSignal HUP (s6-svc -h): the program itself gets HUP, same pid, started once", async () => {
      const starts = new Map(await Promise.all(FORMS.map(async (form) => [form, (await startedPids(host, nameOf(form))).length] as const)));
      await applyOp("reload");
      for (const form of FORMS.filter((f) => f !== "pipeline")) {
        const pid = pids.get(form)!;
        await host.waitFor(async () => (await hupsReceived(host, nameOf(form))).includes(pid), { timeoutMs: 10_000, what: `${nameOf(form)} to log its HUP` });
        expect(await hupsReceived(host, nameOf(form))).toEqual([pid]);
        expect(await pidOf(form)).toBe(pid);
        expect(await livePids(host, nameOf(form))).toEqual([pid]);
        expect(await startedPids(host, nameOf(form))).toHaveLength(starts.get(form)!);
      }
    });

    it("stop (what apply runs: s6-svc -dwD): no process of any form runs once it returns", async () => {
      await applyOp("stop");
      for (const form of FORMS) {
        expect(await liveOf(form), nameOf(form)).toEqual([]);
        expect(await svstat(nameOf(form))).toMatchObject({ up: false, wantedUp: false });
      }
      await applyOp("start");
      pids = await oneEach();
    });

    it("removal (s6-rc's s6-svc -dwD, then the directory leaves the scan directory): no process of any form runs", async () => {
      const old = await snapshot();
      expect([...old.values()].flat()).toHaveLength(FORMS.length + 1);
      for (const form of FORMS) await host.mustExec(["s6-svc", "-d", "-wD", "-T", "20000", `${SCAN}/tend-${nameOf(form)}`]);
      for (const form of FORMS) await host.mustExec(["rm", "-rf", `${SCAN}/tend-${nameOf(form)}`]);
      await host.mustExec(["s6-svscanctl", "-an", SCAN]);
      for (const form of FORMS) expect(await liveOf(form), nameOf(form)).toEqual([]);
    });
  });
});
