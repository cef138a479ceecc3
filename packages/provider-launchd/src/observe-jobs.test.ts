import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { createHash } from "node:crypto";
import { planChanges, ServiceSchema, TimerSchema, type Resource, type Scope } from "@tend/core";
import { ALICE, applyContext, RecordingRunner, type TestApplyContext } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { observeJobs } from "./observe-jobs.js";
import { renderJob } from "./render-job.js";
import { fixture, withJobs, withOverrides, withoutOverrides } from "./__fixtures__/domain-prints.js";

const service = (fields: Record<string, unknown>) => ServiceSchema.parse({ type: "service", ...fields });
const timer = (fields: Record<string, unknown>) => TimerSchema.parse({ type: "timer", ...fields });

async function writePlists(ctx: TestApplyContext, resources: Resource[]): Promise<void> {
  for (const resource of resources) {
    for (const artifact of renderJob(resource, ctx)) {
      const real = join(ctx.rootDir, artifact.path);
      await mkdir(dirname(real), { recursive: true });
      await writeFile(real, artifact.content);
    }
  }
}

describe("observeJobs in the system domain", () => {
  const web = service({ name: "web", exec: "/opt/web/bin/server", restart: "always" });
  const once = service({ name: "login-notes", exec: "/usr/bin/open -g -a /Applications/Notes.app" });
  const worker = service({ name: "worker", exec: "/opt/worker", restart: "on_failure" });
  const gone = service({ name: "gone", exec: "/opt/gone", restart: "always" });
  const off = service({ name: "off", exec: "/opt/off", restart: "always" });
  const tick = timer({ name: "tick", exec: "/opt/tick", schedule: "@hourly" });
  const unarmed = timer({ name: "unarmed", exec: "/opt/unarmed", schedule: "@daily" });
  const absent = service({ name: "absent", exec: "/opt/absent" });
  const all = [web, once, worker, gone, off, tick, unarmed, absent];

  async function observe() {
    const printed = withJobs(fixture("print-system-domain.txt"), [
      { pid: 4242, status: "-", label: "tend.web" },
      { pid: 0, status: "0", label: "tend.login-notes" },
      { pid: 0, status: "0", label: "tend.worker" },
      { pid: 0, status: "-", label: "tend.off" },
      { pid: 0, status: "-", label: "tend.tick" },
    ]);
    const runner = new RecordingRunner().on("launchctl print system", { stdout: withOverrides(printed, { "tend.off": "disabled", "tend.web": "enabled" }) });
    const ctx = await applyContext({ init: "launchd", runner });
    await writePlists(ctx, all.filter((r) => r !== absent));
    return { observations: await observeJobs(all, ctx), runner };
  }

  it("asks launchd once for the whole domain, whatever the number of jobs: its print carries the boot overrides", async () => {
    const { runner } = await observe();
    expect(runner.lines).toEqual(["launchctl print system"]);
  });

  it("a KeepAlive job with a pid is running, enabled, and its pid is reported", async () => {
    const { observations } = await observe();
    expect(observations.get("service:web")).toMatchObject({ exists: true, state: "running", enabled: true, details: { pid: 4242, loaded: true } });
  });

  it("a job booted out by hand while its plist is in place is stopped: drift", async () => {
    const { observations } = await observe();
    expect(observations.get("service:gone")).toMatchObject({ exists: true, state: "stopped", enabled: true, details: { loaded: false } });
  });

  it("a run-once job that is loaded and idle has no running state to compare", async () => {
    const { observations } = await observe();
    const observation = observations.get("service:login-notes");
    expect(observation).toMatchObject({ exists: true, enabled: true, details: { loaded: true, lastExit: "0" } });
    expect(observation?.state).toBeUndefined();
  });

  it("a KeepAlive (on_failure) job loaded without a process is stopped", async () => {
    const { observations } = await observe();
    expect(observations.get("service:worker")).toMatchObject({ exists: true, state: "stopped" });
  });

  it("an override `=> disabled` makes it not enabled", async () => {
    const { observations } = await observe();
    expect(observations.get("service:off")).toMatchObject({ exists: true, enabled: false });
  });

  it("predicts boot from the plist and the overrides: RunAtLoad or KeepAlive starts it, a disabled override does not load it", async () => {
    const { observations } = await observe();
    expect(observations.get("service:web")?.atBoot).toEqual({ starts: true });
    expect(observations.get("service:off")?.atBoot).toEqual({ starts: false, why: "a disabled override keeps launchd from loading it (launchctl enable system/tend.off)" });
    expect(observations.get("timer:tick")?.atBoot).toBeUndefined();
    const idle = service({ name: "idle", exec: "/opt/idle", restart: "always", launchd: { RunAtLoad: false, KeepAlive: false } });
    const runner = new RecordingRunner().on("launchctl print system", { stdout: withOverrides(fixture("print-system-domain.txt"), {}) });
    const ctx = await applyContext({ init: "launchd", runner });
    await writePlists(ctx, [idle]);
    expect((await observeJobs([idle], ctx)).get("service:idle")?.atBoot).toEqual({ starts: false, why: "its plist has neither RunAtLoad nor KeepAlive: launchd loads it at boot without starting it" });
  });

  it("a loaded timer is armed (running); one not loaded is stopped", async () => {
    const { observations } = await observe();
    expect(observations.get("timer:tick")).toMatchObject({ exists: true, state: "running", enabled: true });
    expect(observations.get("timer:unarmed")).toMatchObject({ exists: true, state: "stopped" });
  });

  it("no plist and not loaded: does not exist", async () => {
    const { observations } = await observe();
    expect(observations.get("service:absent")).toMatchObject({ exists: false, state: "stopped", enabled: false });
  });

  it("through the core's planner: the booted-out job is started, the idle run-once job is left alone", async () => {
    const { observations } = await observe();
    const ctx = await applyContext({ init: "launchd" });
    const resources = [web, once, gone];
    const rendered = new Map(resources.map((r) => [`${r.type}:${r.name}`, renderJob(r, ctx)]));
    const current = new Map([...rendered.values()].flat().map((a) => [`file:${a.path}`, a.content]));
    const state = {
      version: 2 as const,
      serial: 1,
      providers: {},
      resources: Object.fromEntries(
        resources.map((r) => {
          const artifacts = rendered.get(`${r.type}:${r.name}`)!.map((a) => ({
            store: "file",
            path: a.path,
            hash: `sha256:${createHash("sha256").update(a.content, "utf8").digest("hex")}`,
          }));
          return [`${r.type}:${r.name}`, { resource: r, provider: "launchd", artifacts }];
        }),
      ),
    };
    const plan = planChanges({
      host: ctx.host,
      initDisplayName: "launchd",
      scope: ctx.scope,
      resources,
      state,
      providers: new Map(resources.map((r) => [`${r.type}:${r.name}`, { name: "launchd", refused: [] }])),
      rendered,
      current,
      observations,
      adopt: false,
    });
    const entry = (key: string) => plan.entries.find((e) => e.key === key)!;
    expect(entry("service:gone")).toMatchObject({ action: "change", ops: ["start"], reasons: ["stopped, want running"] });
    expect(entry("service:login-notes")).toMatchObject({ action: "none", ops: [] });
    expect(entry("service:web")).toMatchObject({ action: "none", ops: [] });
  });
});

describe("observeJobs: the definition launchd loaded", () => {
  const web = service({ name: "web", exec: "/opt/web/bin/server", restart: "always" });
  const printed = () => withJobs(fixture("print-system-domain.txt"), [{ pid: 4242, status: "-", label: "tend.web" }]);

  it("reports a loaded job whose last bootstrap loaded another plist than tend renders now, and plan restarts it without rewriting the plist", async () => {
    const runner = new RecordingRunner().on("launchctl print system", { stdout: withOverrides(printed(), { "tend.web": "enabled" }) });
    const ctx = await applyContext({ init: "launchd", runner });
    await writePlists(ctx, [web]);
    ctx.state.set("loaded", { "tend.web": "0".repeat(64) }); // what an earlier bootstrap loaded
    const observed = (await observeJobs([web], ctx)).get("service:web")!;
    expect(observed.olderDefinition).toEqual(["launchd runs an older definition than /Library/LaunchDaemons/tend.web.plist"]);
    const rendered = new Map([["service:web", renderJob(web, ctx)]]);
    const artifacts = rendered.get("service:web")!.map((a) => ({ store: "file", path: a.path, hash: `sha256:${createHash("sha256").update(a.content, "utf8").digest("hex")}` }));
    const plan = planChanges({
      host: ctx.host,
      initDisplayName: "launchd",
      scope: ctx.scope,
      resources: [web],
      state: { version: 2, serial: 1, providers: {}, resources: { "service:web": { resource: web, provider: "launchd", artifacts } } },
      providers: new Map([["service:web", { name: "launchd", refused: [] }]]),
      rendered,
      current: new Map(rendered.get("service:web")!.map((a) => [`file:${a.path}`, a.content])),
      observations: new Map([["service:web", observed]]),
      adopt: false,
    });
    expect(plan.entries[0]).toMatchObject({ action: "change", ops: ["restart"], writes: [], staleDefinition: true, drift: ["launchd runs an older definition than /Library/LaunchDaemons/tend.web.plist"] });
  });

  it("says nothing when the plist it loaded is the one tend renders, or when no bootstrap was noted", async () => {
    const runner = new RecordingRunner().on("launchctl print system", { stdout: withOverrides(printed(), { "tend.web": "enabled" }) });
    const ctx = await applyContext({ init: "launchd", runner });
    await writePlists(ctx, [web]);
    expect((await observeJobs([web], ctx)).get("service:web")!.olderDefinition).toBeUndefined();
    const { plistHash } = await import("./loaded-plists.js");
    ctx.state.set("loaded", { "tend.web": plistHash(web) });
    expect((await observeJobs([web], ctx)).get("service:web")!.olderDefinition).toBeUndefined();
  });
});

describe("observeJobs in a user's GUI domain", () => {
  const agent = service({ name: "syncthing", exec: "syncthing serve", user: true, restart: "always" });

  it("reads gui/<uid> and its overrides from one print", async () => {
    const printed = withJobs(fixture("print-gui-domain-elided.txt"), [{ pid: 512, status: "-", label: "tend.syncthing" }]);
    const runner = new RecordingRunner().on("launchctl print gui/1000", { stdout: withOverrides(printed, { "tend.syncthing": "disabled" }) });
    const ctx = await applyContext({ init: "launchd", scope: "user", runner });
    await writePlists(ctx, [agent]);
    const observations = await observeJobs([agent], ctx);
    expect(runner.lines).toEqual(["launchctl print gui/1000"]);
    expect(observations.get("service:syncthing")).toMatchObject({ exists: true, state: "running", enabled: false, details: { domain: "gui/1000", pid: 512 } });
    // a LaunchAgent runs with its user's login, never at boot
    expect(observations.get("service:syncthing")?.atBoot).toEqual({ starts: false, why: "it is a LaunchAgent in gui/1000, loaded when its user logs in, not at boot" });
  });

  it("asks print-disabled when the domain print has no `disabled services` block, reading the legacy `=> true` form", async () => {
    const printed = withoutOverrides(withJobs(fixture("print-gui-domain-elided.txt"), [{ pid: 512, status: "-", label: "tend.syncthing" }]));
    const runner = new RecordingRunner()
      .on("launchctl print gui/1000", { stdout: printed })
      .on("launchctl print-disabled gui/1000", { stdout: withOverrides(fixture("print-disabled-user-legacy.txt"), { "tend.syncthing": "true" }) });
    const ctx = await applyContext({ init: "launchd", scope: "user", runner });
    await writePlists(ctx, [agent]);
    const observations = await observeJobs([agent], ctx);
    expect(runner.lines).toEqual(["launchctl print gui/1000", "launchctl print-disabled gui/1000"]);
    expect(observations.get("service:syncthing")).toMatchObject({ exists: true, state: "running", enabled: false });
  });

  it("without a GUI session (112) the job's state and boot override are unknown, not drift", async () => {
    const runner = new RecordingRunner().on("launchctl print gui/1000", { exitCode: 112, stderr: fixture("print-gui-domain-missing.stderr.txt") });
    const ctx = await applyContext({ init: "launchd", scope: ALICE as Scope, runner });
    await writePlists(ctx, [agent]);
    const observation = (await observeJobs([agent], ctx)).get("service:syncthing");
    expect(runner.lines).toEqual(["launchctl print gui/1000"]);
    expect(observation).toMatchObject({ exists: true });
    expect(observation?.state).toBeUndefined();
    expect(observation?.enabled).toBeUndefined();
    expect(String(observation?.details?.note)).toContain("no GUI session");
  });

  it("any other failure of launchctl print is an error, not an empty domain", async () => {
    const runner = new RecordingRunner().on("launchctl print gui/1000", { exitCode: 1, stderr: "Operation not permitted" });
    const ctx = await applyContext({ init: "launchd", scope: "user", runner });
    await expect(observeJobs([agent], ctx)).rejects.toThrow(/Operation not permitted/);
  });
});

describe("observeJobs under --root", () => {
  it("runs nothing and reports the plist files only", async () => {
    const runner = new RecordingRunner();
    const ctx = await applyContext({ init: "launchd", runner, offline: true });
    const web = service({ name: "web", exec: "/opt/web" });
    const other = service({ name: "other", exec: "/opt/other" });
    await writePlists(ctx, [web]);
    const observations = await observeJobs([web, other], ctx);
    expect(runner.lines).toEqual([]);
    expect(observations.get("service:web")).toEqual({ exists: true, details: { domain: "system", label: "tend.web", plist: true } });
    expect(observations.get("service:other")?.exists).toBe(false);
  });
});

describe("observeJobs when launchctl answers something it cannot read", () => {
  const web = service({ name: "web", exec: "/opt/web", restart: "always" });

  it("a failed print-disabled leaves `enabled` unobservable, says why, and keeps the rest", async () => {
    const runner = new RecordingRunner()
      .on("launchctl print system", { stdout: withoutOverrides(withJobs(fixture("print-system-domain.txt"), [{ pid: 77, status: "-", label: "tend.web" }])) })
      .on("launchctl print-disabled system", { exitCode: 5, stderr: "Could not print disabled: 5: Input/output error" });
    const ctx = await applyContext({ init: "launchd", runner });
    await writePlists(ctx, [web]);
    const observation = (await observeJobs([web], ctx)).get("service:web");
    expect(observation).toMatchObject({ exists: true, state: "running", details: { pid: 77 } });
    expect(observation?.enabled).toBeUndefined();
    expect(observation?.details?.note).toBe("could not read `launchctl print-disabled system` (exit 5: Could not print disabled: 5: Input/output error)");
  });

  it("a domain print without a services block leaves the state unobservable rather than `stopped`", async () => {
    const runner = new RecordingRunner()
      .on("launchctl print system", { stdout: "system = {\n\ttype = system\n}\n" })
      .on("launchctl print-disabled system", { stdout: fixture("print-disabled-gui-modern.txt") });
    const ctx = await applyContext({ init: "launchd", runner });
    await writePlists(ctx, [web]);
    const observation = (await observeJobs([web], ctx)).get("service:web");
    expect(observation).toMatchObject({ exists: true, enabled: true, details: { note: "could not read `launchctl print system`" } });
    expect(observation?.state).toBeUndefined();
  });
});
