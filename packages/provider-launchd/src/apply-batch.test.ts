import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ServiceSchema, TendError, TimerSchema, type Operation, type Resource, type ResourceChange } from "@tend/core";
import { applyContext, RecordingRunner, type TestApplyContext } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { fixture, withJobs, withOverrides, withoutOverrides } from "./__fixtures__/domain-prints.js";
import { plistHash } from "./loaded-plists.js";
import { applyBatch, applyChange } from "./apply-batch.js";
import { removeBatch, removeChange } from "./remove-batch.js";
import { renderJob } from "./render-job.js";

const service = (fields: Record<string, unknown>) => ServiceSchema.parse({ type: "service", ...fields });
const timer = (fields: Record<string, unknown>) => TimerSchema.parse({ type: "timer", ...fields });
const web = service({ name: "web", exec: "/opt/web/bin/server", restart: "always", reloadSignal: "HUP" });
const many = (count: number) => Array.from({ length: count }, (_, i) => service({ name: `s${i}`, exec: `/opt/s/bin/s${i}`, restart: "always" }));

function change(resource: Resource, action: ResourceChange["action"], ops: Operation[], filesChanged = action !== "remove"): ResourceChange {
  return { key: `${resource.type}:${resource.name}`, action, resource, ops, filesChanged, reasons: [] };
}

/** `launchctl print system` with these labels loaded (pid 0: loaded without a process) and these overrides. */
function domain(loaded: Record<string, number> = {}, overrides: Record<string, string> = {}): { stdout: string } {
  const jobs = Object.entries(loaded).map(([label, pid]) => ({ pid, status: "-", label }));
  return { stdout: withOverrides(withJobs(fixture("print-system-domain.txt"), jobs), overrides) };
}

async function context(runner: RecordingRunner, options: { scope?: "user"; offline?: boolean; plists?: Resource[] } = {}) {
  const ctx = await applyContext({ init: "launchd", runner, ...options });
  const slept: number[] = [];
  ctx.sleep = async (ms) => void slept.push(ms);
  await writePlists(ctx, options.plists ?? []);
  return Object.assign(ctx, { slept });
}

/** The plists as the core would have written them before apply (or left them before a removal). */
async function writePlists(ctx: TestApplyContext, resources: Resource[]): Promise<void> {
  for (const resource of resources) {
    for (const artifact of renderJob(resource, ctx)) {
      const real = join(ctx.rootDir, artifact.path);
      await mkdir(dirname(real), { recursive: true });
      await writeFile(real, artifact.content);
    }
  }
}

const draining = { exitCode: 5, stderr: "Bootstrap failed: 5: Input/output error" };

describe("applyBatch: as many launchctl calls for 60 services as for 3 (issue 16)", () => {
  it("a fresh wave: one print of the domain and one bootstrap of every plist", async () => {
    const counts: number[] = [];
    for (const size of [3, 60]) {
      const services = many(size);
      const runner = new RecordingRunner().on("launchctl print system", domain());
      const ctx = await context(runner, { plists: services });
      const failures = await applyBatch(services.map((s) => change(s, "add", ["enable", "start"])), ctx);
      expect(failures).toEqual(new Map());
      expect(runner.lines).toEqual(["launchctl print system", `launchctl bootstrap system ${services.map((s) => `/Library/LaunchDaemons/tend.${s.name}.plist`).join(" ")}`]);
      expect(ctx.logged).toContain(`service:s${size - 1}: bootstrapped /Library/LaunchDaemons/tend.s${size - 1}.plist into system`);
      // what each bootstrap loaded is noted, for loaded-definition drift
      expect(ctx.state.get<Record<string, string>>("loaded")).toEqual(Object.fromEntries(services.map((s) => [`tend.${s.name}`, plistHash(s)])));
      counts.push(runner.lines.length);
    }
    expect(counts).toEqual([2, 2]);
  });

  it("a wave of changed plists: one print, one bootout, one print until launchd let go, one bootstrap", async () => {
    const counts: number[] = [];
    for (const size of [3, 60]) {
      const services = many(size);
      const loaded = Object.fromEntries(services.map((s, i) => [`tend.${s.name}`, 100 + i]));
      const runner = new RecordingRunner().on("launchctl print system", domain(loaded), 1).on("launchctl print system", domain());
      const ctx = await context(runner, { plists: services });
      expect(await applyBatch(services.map((s) => change(s, "change", ["restart"])), ctx)).toEqual(new Map());
      const paths = services.map((s) => `/Library/LaunchDaemons/tend.${s.name}.plist`).join(" ");
      expect(runner.lines).toEqual(["launchctl print system", `launchctl bootout system ${paths}`, "launchctl print system", `launchctl bootstrap system ${paths}`]);
      expect(ctx.logged).toContain("service:s0: booted out and bootstrapped system/tend.s0 again");
      counts.push(runner.lines.length);
    }
    expect(counts[1]).toBe(counts[0]);
  });

  it("a wave of removals: one print and one bootout of the loaded ones", async () => {
    const counts: number[] = [];
    for (const size of [3, 60]) {
      const services = many(size);
      const loaded = Object.fromEntries(services.map((s, i) => [`tend.${s.name}`, 100 + i]));
      const runner = new RecordingRunner().on("launchctl print system", domain(loaded));
      const ctx = await context(runner, { plists: services });
      expect(await removeBatch(services.map((s) => change(s, "remove", [])), ctx)).toEqual(new Map());
      expect(runner.lines).toEqual(["launchctl print system", `launchctl bootout system ${services.map((s) => `/Library/LaunchDaemons/tend.${s.name}.plist`).join(" ")}`]);
      counts.push(runner.lines.length);
    }
    expect(counts[1]).toBe(counts[0]);
  });

  it("splits very long waves into calls of 200 plists", async () => {
    const services = many(450);
    const runner = new RecordingRunner().on("launchctl print system", domain());
    await applyBatch(services.map((s) => change(s, "add", ["enable", "start"])), await context(runner, { plists: services }));
    expect(runner.lines.map((line) => line.split(" ").length - 3)).toEqual([0, 200, 200, 50]);
  });
});

describe("applyBatch: a failure is pinned on the job that caused it", () => {
  it("a label launchd reports disabled (119) fails alone, at once; the others are loaded", async () => {
    const services = many(3);
    const runner = new RecordingRunner()
      .on("launchctl print system", domain(), 1)
      .on("launchctl bootstrap system", { exitCode: 119, stderr: "/Library/LaunchDaemons/tend.s1.plist: Service is disabled\nBootstrap failed: 119: Service is disabled" }, 2)
      .on("launchctl print system", domain({ "tend.s0": 10, "tend.s2": 12 }));
    const ctx = await context(runner, { plists: services });
    const failures = await applyBatch(services.map((s) => change(s, "add", ["start"])), ctx);
    expect([...failures.keys()]).toEqual(["service:s1"]);
    expect((failures.get("service:s1") as Error).message).toMatch(/`launchctl bootstrap system \/Library\/LaunchDaemons\/tend.s1.plist` exited 119: .*Service is disabled/s);
    expect(runner.lines.slice(2)).toEqual(["launchctl print system", "launchctl bootstrap system /Library/LaunchDaemons/tend.s1.plist"]);
    expect(ctx.slept).toEqual([]);
    expect(ctx.logged).toEqual(["service:s0: bootstrapped /Library/LaunchDaemons/tend.s0.plist into system", "service:s2: bootstrapped /Library/LaunchDaemons/tend.s2.plist into system"]);
  });

  it("labels still draining after a bootout (5) are retried together every second until they load", async () => {
    const services = many(3);
    const loaded = { "tend.s0": 1, "tend.s1": 2, "tend.s2": 3 };
    const runner = new RecordingRunner()
      .on("launchctl print system", domain(loaded), 1)
      .on("launchctl print system", domain(), 1)
      .on("launchctl bootstrap system", draining, 1)
      .on("launchctl print system", domain({ "tend.s0": 7 }), 1)
      .on("launchctl print system", domain(loaded));
    const ctx = await context(runner, { plists: services });
    expect(await applyBatch(services.map((s) => change(s, "change", ["restart"])), ctx)).toEqual(new Map());
    expect(runner.lines.slice(3)).toEqual([
      "launchctl bootstrap system /Library/LaunchDaemons/tend.s0.plist /Library/LaunchDaemons/tend.s1.plist /Library/LaunchDaemons/tend.s2.plist",
      "launchctl print system",
      "launchctl bootstrap system /Library/LaunchDaemons/tend.s1.plist /Library/LaunchDaemons/tend.s2.plist",
    ]);
    expect(ctx.slept).toEqual([1000]);
  });

  it("retries a label answering 5 or 37 for about 15 s, then reports launchctl's own error", async () => {
    const runner = new RecordingRunner()
      .on("launchctl print system", domain())
      .on("launchctl bootstrap", { exitCode: 37, stderr: "Bootstrap failed: 37: Operation already in progress" }, 3)
      .on("launchctl bootstrap", draining);
    const ctx = await context(runner, { plists: [web] });
    const failure = await applyChange(change(web, "change", ["restart"]), ctx).catch((error: unknown) => error);
    expect(TendError.isInstance(failure) && failure.code).toBe("TEND_COMMAND_FAILED");
    expect((failure as Error).message).toBe("`launchctl bootstrap system /Library/LaunchDaemons/tend.web.plist` exited 5: Bootstrap failed: 5: Input/output error");
    expect(runner.lines.filter((line) => line.startsWith("launchctl bootstrap"))).toHaveLength(16);
    expect(ctx.slept.reduce((a, b) => a + b, 0)).toBe(15_000);
  });

  it("a failed batched bootout is retried job by job, each by its service target, tolerating a label already gone", async () => {
    const services = many(2);
    const loaded = { "tend.s0": 1, "tend.s1": 2 };
    const runner = new RecordingRunner()
      .on("launchctl print system", domain(loaded), 1)
      .on(/^launchctl bootout system \//, { exitCode: 5, stderr: "Boot-out failed: 5: Input/output error" })
      .on("launchctl bootout system/tend.s0", { exitCode: 3, stderr: "Boot-out failed: 3: No such process" })
      .on("launchctl bootout system/tend.s1", { exitCode: 1, stderr: "Boot-out failed: 1: Operation not permitted" })
      .on("launchctl print system", domain());
    const ctx = await context(runner, { plists: services });
    const failures = await applyBatch(services.map((s) => change(s, "change", ["stop"], false)), ctx);
    expect([...failures.keys()]).toEqual(["service:s1"]);
    expect(String(failures.get("service:s1"))).toMatch(/Operation not permitted/);
    expect(runner.lines).toEqual([
      "launchctl print system",
      "launchctl bootout system /Library/LaunchDaemons/tend.s0.plist /Library/LaunchDaemons/tend.s1.plist",
      "launchctl bootout system/tend.s0",
      "launchctl bootout system/tend.s1",
      "launchctl print system",
    ]);
    expect(ctx.logged).toEqual(["service:s0: booted out system/tend.s0"]);
  });

  it("a job whose plist no longer names its label is booted out by its service target, never by the file", async () => {
    const runner = new RecordingRunner().on("launchctl print system", domain({ "tend.web": 5 }), 1).on("launchctl print system", domain());
    const ctx = await context(runner);
    await mkdir(join(ctx.rootDir, "Library/LaunchDaemons"), { recursive: true });
    await writeFile(join(ctx.rootDir, "Library/LaunchDaemons/tend.web.plist"), renderJob(web, ctx)[0]!.content.replace("<string>tend.web</string>", "<string>com.example.other</string>"));
    await applyBatch([change(web, "change", ["stop"], false)], ctx);
    expect(runner.lines).toEqual(["launchctl print system", "launchctl bootout system/tend.web", "launchctl print system"]);
  });
});

describe("applyBatch: a new service", () => {
  it("bootstraps the plist into the system domain; enable runs only where an override disables the label", async () => {
    const runner = new RecordingRunner().on("launchctl print system", domain({}, { "tend.web": "disabled" }));
    const ctx = await context(runner, { plists: [web] });
    await applyChange(change(web, "add", ["enable", "start"]), ctx);
    expect(runner.lines).toEqual(["launchctl print system", "launchctl enable system/tend.web", "launchctl bootstrap system /Library/LaunchDaemons/tend.web.plist"]);
    expect(ctx.logged).toEqual(["service:web: enabled system/tend.web", "service:web: bootstrapped /Library/LaunchDaemons/tend.web.plist into system"]);
  });

  it("enables every label when the overrides cannot be read at all", async () => {
    const runner = new RecordingRunner()
      .on("launchctl print system", { stdout: withoutOverrides(domain().stdout) })
      .on("launchctl print-disabled system", { exitCode: 5, stderr: "Could not print disabled: 5: Input/output error" });
    await applyChange(change(web, "add", ["enable", "start"]), await context(runner, { plists: [web] }));
    expect(runner.lines).toEqual([
      "launchctl print system",
      "launchctl print-disabled system",
      "launchctl enable system/tend.web",
      "launchctl bootstrap system /Library/LaunchDaemons/tend.web.plist",
    ]);
  });

  it("a user service goes to gui/<uid> from its LaunchAgents plist", async () => {
    const agent = service({ name: "syncthing", exec: "syncthing serve", user: true, restart: "always" });
    const runner = new RecordingRunner().on("launchctl print gui/1000", { stdout: fixture("print-gui-domain-elided.txt") });
    await applyChange(change(agent, "add", ["enable", "start"]), await context(runner, { scope: "user", plists: [agent] }));
    expect(runner.lines).toEqual(["launchctl print gui/1000", "launchctl bootstrap gui/1000 /home/alice/Library/LaunchAgents/tend.syncthing.plist"]);
  });

  it("a label left loaded by an interrupted apply is booted out first, so the bootstrap loads the new plist", async () => {
    const runner = new RecordingRunner().on("launchctl print system", domain({ "tend.web": 42 }), 1).on("launchctl print system", domain());
    await applyChange(change(web, "add", ["enable", "start"]), await context(runner, { plists: [web] }));
    expect(runner.lines).toEqual([
      "launchctl print system",
      "launchctl bootout system /Library/LaunchDaemons/tend.web.plist",
      "launchctl print system",
      "launchctl bootstrap system /Library/LaunchDaemons/tend.web.plist",
    ]);
  });

  it("a service to run now but not at boot is enabled to load it, then disabled (launchd will not bootstrap a disabled label)", async () => {
    const kept = service({ name: "web", exec: "/opt/web/bin/server", desired: { state: "running", enabled: false } });
    const runner = new RecordingRunner().on("launchctl print system", domain({}, { "tend.web": "disabled" }));
    await applyChange(change(kept, "add", ["disable", "start"]), await context(runner, { plists: [kept] }));
    expect(runner.lines).toEqual([
      "launchctl print system",
      "launchctl enable system/tend.web",
      "launchctl bootstrap system /Library/LaunchDaemons/tend.web.plist",
      "launchctl disable system/tend.web",
    ]);
  });

  it("… and disabled again when loading it failed, so it does not load at boot", async () => {
    const kept = service({ name: "web", exec: "/opt/web/bin/server", desired: { state: "running", enabled: false } });
    const runner = new RecordingRunner()
      .on("launchctl print system", domain({}, { "tend.web": "disabled" }))
      .on("launchctl bootstrap", { exitCode: 1, stderr: "Bootstrap failed: 1: Operation not permitted" });
    const ctx = await context(runner, { plists: [kept] });
    await expect(applyChange(change(kept, "add", ["disable", "start"]), ctx)).rejects.toThrow(/Operation not permitted/);
    expect(runner.lines.at(-1)).toBe("launchctl disable system/tend.web");
  });
});

describe("applyBatch: operations on an unchanged plist", () => {
  it("restart (restartOn matched): kickstart -k", async () => {
    const runner = new RecordingRunner().on("launchctl print system", domain({ "tend.web": 42 }));
    await applyChange(change(web, "change", ["restart"], false), await context(runner, { plists: [web] }));
    expect(runner.lines).toEqual(["launchctl print system", "launchctl kickstart -k system/tend.web"]);
  });

  it("start of a loaded job without a process: kickstart", async () => {
    const runner = new RecordingRunner().on("launchctl print system", domain({ "tend.web": 0 }));
    await applyChange(change(web, "change", ["start"], false), await context(runner, { plists: [web] }));
    expect(runner.lines).toEqual(["launchctl print system", "launchctl kickstart system/tend.web"]);
  });

  it("a changed plist of a stopped KeepAlive job is reloaded, not kickstarted with the old definition", async () => {
    const runner = new RecordingRunner().on("launchctl print system", domain({ "tend.web": 0 }), 1).on("launchctl print system", domain());
    await applyChange(change(web, "change", ["start"]), await context(runner, { plists: [web] }));
    expect(runner.lines).toContain("launchctl bootout system /Library/LaunchDaemons/tend.web.plist");
    expect(runner.lines.at(-1)).toBe("launchctl bootstrap system /Library/LaunchDaemons/tend.web.plist");
    expect(runner.lines.some((line) => line.includes("kickstart"))).toBe(false);
  });

  it("start of a job booted out by hand: bootstrap", async () => {
    const runner = new RecordingRunner().on("launchctl print system", domain());
    await applyChange(change(web, "change", ["start"], false), await context(runner, { plists: [web] }));
    expect(runner.lines).toEqual(["launchctl print system", "launchctl bootstrap system /Library/LaunchDaemons/tend.web.plist"]);
  });

  it("stop: bootout and wait until the label is gone, polling the domain", async () => {
    const runner = new RecordingRunner().on("launchctl print system", domain({ "tend.web": 42 }), 2).on("launchctl print system", domain());
    const ctx = await context(runner, { plists: [web] });
    await applyChange(change(web, "change", ["stop"], false), ctx);
    expect(runner.lines).toEqual(["launchctl print system", "launchctl bootout system /Library/LaunchDaemons/tend.web.plist", "launchctl print system", "launchctl print system"]);
    expect(ctx.slept).toEqual([500]);
  });

  it("gives up waiting for the label after 10 s and lets the bootstrap retries decide", async () => {
    const runner = new RecordingRunner().on("launchctl print system", domain({ "tend.web": 42 }), 21).on("launchctl print system", domain({ "tend.web": 42 }));
    const ctx = await context(runner, { plists: [web] });
    await applyChange(change(web, "change", ["restart"]), ctx);
    expect(runner.lines.filter((line) => line === "launchctl print system")).toHaveLength(21);
    expect(runner.lines.at(-1)).toBe("launchctl bootstrap system /Library/LaunchDaemons/tend.web.plist");
    expect(ctx.slept).toEqual(Array(20).fill(500));
  });

  it("reload: launchctl kill with the service's reloadSignal", async () => {
    const runner = new RecordingRunner().on("launchctl print system", domain({ "tend.web": 42 }));
    const ctx = await context(runner, { plists: [web] });
    await applyChange(change(web, "change", ["reload"], false), ctx);
    expect(runner.lines).toEqual(["launchctl print system", "launchctl kill SIGHUP system/tend.web"]);
    expect(ctx.logged).toEqual(["service:web: sent SIGHUP to system/tend.web"]);
  });

  it("reload without a reloadSignal is refused, never turned into a restart", async () => {
    const plain = service({ name: "web", exec: "/opt/web/bin/server" });
    const runner = new RecordingRunner().on("launchctl print system", domain({ "tend.web": 42 }));
    await expect(applyChange(change(plain, "change", ["reload"], false), await context(runner))).rejects.toThrow(
      "service:web lists resources in reloadOn, but it cannot reload on launchd",
    );
    expect(runner.lines).toEqual(["launchctl print system"]);
  });

  it("enable and disable: launchd's boot override", async () => {
    const runner = new RecordingRunner().on("launchctl print system", domain({ "tend.web": 42 }, { "tend.web": "disabled" }));
    await applyChange(change(web, "change", ["enable"], false), await context(runner));
    await applyChange(change(web, "change", ["disable"], false), await context(runner));
    expect(runner.lines).toEqual(["launchctl print system", "launchctl enable system/tend.web", "launchctl print system", "launchctl disable system/tend.web"]);
  });
});

describe("applyBatch: timers", () => {
  const tick = timer({ name: "tick", exec: "/opt/tick", schedule: "@hourly" });

  it("a new timer is bootstrapped (loading arms it; it does not run it)", async () => {
    const runner = new RecordingRunner().on("launchctl print system", domain());
    await applyChange(change(tick, "add", ["enable", "start"]), await context(runner, { plists: [tick] }));
    expect(runner.lines).toEqual(["launchctl print system", "launchctl bootstrap system /Library/LaunchDaemons/tend.tick.plist"]);
  });

  it("a loaded timer with an unchanged plist is already armed: nothing is kickstarted", async () => {
    const runner = new RecordingRunner().on("launchctl print system", domain({ "tend.tick": 0 }));
    await applyChange(change(tick, "change", ["start"], false), await context(runner));
    expect(runner.lines).toEqual(["launchctl print system"]);
  });
});

describe("applyBatch when the domain print cannot be read", () => {
  it("asks each label on its own instead", async () => {
    const runner = new RecordingRunner()
      .on("launchctl print system/tend.web", { exitCode: 113, stderr: 'Could not find service "tend.web" in domain for system' })
      .on("launchctl print system", { stdout: "system = {\n\ttype = system\n}\n" });
    await applyChange(change(web, "add", ["start"]), await context(runner, { plists: [web] }));
    expect(runner.lines).toEqual(["launchctl print system", "launchctl print system/tend.web", "launchctl bootstrap system /Library/LaunchDaemons/tend.web.plist"]);
  });
});

describe("applyBatch under --root", () => {
  it("runs nothing: the plist in the image loads at boot", async () => {
    const runner = new RecordingRunner();
    const ctx = await context(runner, { offline: true });
    expect(await applyBatch([change(web, "add", ["enable", "start"]), change(service({ name: "x", exec: "/x" }), "change", ["disable"], false)], ctx)).toEqual(new Map());
    expect(runner.lines).toEqual([]);
    expect(ctx.logged).toEqual(["service:x: not disabled: launchd keeps its boot overrides outside the image, so the job loads at boot"]);
  });
});

describe("removeBatch", () => {
  it("a job not loaded needs no bootout", async () => {
    const runner = new RecordingRunner().on("launchctl print system", domain());
    await removeChange(change(web, "remove", []), await context(runner, { plists: [web] }));
    expect(runner.lines).toEqual(["launchctl print system"]);
  });

  it("sets a disabled override back to enabled", async () => {
    const kept = service({ name: "web", exec: "/opt/web", desired: { state: "running", enabled: false } });
    const runner = new RecordingRunner().on("launchctl print system", domain({ "tend.web": 42 }, { "tend.web": "disabled" }));
    await removeChange(change(kept, "remove", []), await context(runner, { plists: [kept] }));
    expect(runner.lines).toEqual(["launchctl print system", "launchctl bootout system /Library/LaunchDaemons/tend.web.plist", "launchctl enable system/tend.web"]);
  });

  it("a plist deleted by hand: bootout by service target", async () => {
    const runner = new RecordingRunner().on("launchctl print system", domain({ "tend.web": 42 }));
    await removeChange(change(web, "remove", []), await context(runner));
    expect(runner.lines).toEqual(["launchctl print system", "launchctl bootout system/tend.web"]);
  });

  it("fails on a bootout error, so the plist is not deleted under a running job", async () => {
    const runner = new RecordingRunner()
      .on("launchctl print system", domain({ "tend.web": 42 }))
      .on("launchctl bootout", { exitCode: 1, stderr: "Boot-out failed: 1: Operation not permitted" });
    await expect(removeChange(change(web, "remove", []), await context(runner, { plists: [web] }))).rejects.toThrow(/Operation not permitted/);
  });

  it("without a GUI session (112) nothing is loaded: nothing to boot out", async () => {
    const agent = service({ name: "a", exec: "/opt/a", user: true });
    const runner = new RecordingRunner().on("launchctl print gui/1000", { exitCode: 112, stderr: fixture("print-gui-domain-missing.stderr.txt") });
    await removeChange(change(agent, "remove", []), await context(runner, { scope: "user", plists: [agent] }));
    expect(runner.lines).toEqual(["launchctl print gui/1000"]);
  });

  it("runs nothing under --root", async () => {
    const runner = new RecordingRunner();
    await removeChange(change(web, "remove", []), await context(runner, { offline: true }));
    expect(runner.lines).toEqual([]);
  });
});
