import { ServiceSchema, TendError, TimerSchema, type Operation, type Resource, type ResourceChange } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { applyJob } from "./apply-job.js";
import { removeJob } from "./remove-job.js";

const service = (fields: Record<string, unknown>) => ServiceSchema.parse({ type: "service", ...fields });
const timer = (fields: Record<string, unknown>) => TimerSchema.parse({ type: "timer", ...fields });
const web = service({ name: "web", exec: "/opt/web/bin/server", restart: "always", reloadSignal: "HUP" });

function change(resource: Resource, action: ResourceChange["action"], ops: Operation[], filesChanged = action !== "remove"): ResourceChange {
  return { key: `${resource.type}:${resource.name}`, action, resource, ops, filesChanged, reasons: [] };
}

async function context(runner: RecordingRunner, options: { scope?: "user"; offline?: boolean } = {}) {
  const ctx = await applyContext({ init: "launchd", runner, ...options });
  const slept: number[] = [];
  ctx.sleep = async (ms) => void slept.push(ms);
  return Object.assign(ctx, { slept });
}

const notLoaded = { exitCode: 113, stderr: 'Bad request.\nCould not find service "tend.web" in domain for system' };
const draining = { exitCode: 5, stderr: "Bootstrap failed: 5: Input/output error" };

describe("applyJob: a new service", () => {
  it("enables the label and bootstraps the plist into the system domain", async () => {
    const runner = new RecordingRunner().on("launchctl print system/tend.web", notLoaded);
    const ctx = await context(runner);
    await applyJob(change(web, "add", ["enable", "start"]), ctx);
    expect(runner.lines).toEqual([
      "launchctl enable system/tend.web",
      "launchctl print system/tend.web",
      "launchctl bootstrap system /Library/LaunchDaemons/tend.web.plist",
    ]);
    expect(ctx.logged).toContain("service:web: bootstrapped /Library/LaunchDaemons/tend.web.plist into system");
  });

  it("a user service goes to gui/<uid> from its LaunchAgents plist", async () => {
    const agent = service({ name: "syncthing", exec: "syncthing serve", user: true, restart: "always" });
    const runner = new RecordingRunner().on("launchctl print gui/1000/tend.syncthing", { exitCode: 113 });
    await applyJob(change(agent, "add", ["enable", "start"]), await context(runner, { scope: "user" }));
    expect(runner.lines).toEqual([
      "launchctl enable gui/1000/tend.syncthing",
      "launchctl print gui/1000/tend.syncthing",
      "launchctl bootstrap gui/1000 /home/alice/Library/LaunchAgents/tend.syncthing.plist",
    ]);
  });

  it("a label left loaded by an interrupted apply is booted out first, so the bootstrap loads the new plist", async () => {
    const runner = new RecordingRunner().on("launchctl print system/tend.web", { exitCode: 0 }, 1).on("launchctl print system/tend.web", notLoaded);
    await applyJob(change(web, "add", ["enable", "start"]), await context(runner));
    expect(runner.lines).toEqual([
      "launchctl enable system/tend.web",
      "launchctl print system/tend.web",
      "launchctl bootout system/tend.web",
      "launchctl print system/tend.web",
      "launchctl bootstrap system /Library/LaunchDaemons/tend.web.plist",
    ]);
  });

  it("a service to run now but not at boot is loaded, then disabled (launchd will not bootstrap a disabled label)", async () => {
    const kept = service({ name: "web", exec: "/opt/web/bin/server", desired: { state: "running", enabled: false } });
    const runner = new RecordingRunner().on("launchctl print system/tend.web", notLoaded);
    await applyJob(change(kept, "add", ["disable", "start"]), await context(runner));
    expect(runner.lines).toEqual([
      "launchctl print system/tend.web",
      "launchctl enable system/tend.web",
      "launchctl bootstrap system /Library/LaunchDaemons/tend.web.plist",
      "launchctl disable system/tend.web",
    ]);
  });
});

describe("applyJob: a changed plist", () => {
  it("boots out, waits until launchd lets go of the label, and bootstraps again, retrying on 5", async () => {
    const runner = new RecordingRunner()
      .on("launchctl print system/tend.web", { exitCode: 0 }, 2)
      .on("launchctl print system/tend.web", notLoaded)
      .on("launchctl bootout system/tend.web", { exitCode: 36, stderr: "Boot-out failed: 36: Operation now in progress" })
      .on("launchctl bootstrap", draining, 1);
    const ctx = await context(runner);
    await applyJob(change(web, "change", ["restart"]), ctx);
    expect(runner.lines).toEqual([
      "launchctl print system/tend.web",
      "launchctl bootout system/tend.web",
      "launchctl print system/tend.web",
      "launchctl print system/tend.web",
      "launchctl bootstrap system /Library/LaunchDaemons/tend.web.plist",
      "launchctl bootstrap system /Library/LaunchDaemons/tend.web.plist",
    ]);
    expect(ctx.slept).toEqual([500, 1000]);
    expect(ctx.logged).toContain("service:web: booted out and bootstrapped system/tend.web again");
  });

  it("retries a bootstrap answering 5 or 37 for about 15 s, then reports launchctl's own error", async () => {
    const runner = new RecordingRunner()
      .on("launchctl print system/tend.web", notLoaded)
      .on("launchctl bootstrap", { exitCode: 37, stderr: "Bootstrap failed: 37: Operation already in progress" }, 3)
      .on("launchctl bootstrap", draining);
    const ctx = await context(runner);
    const failure = await applyJob(change(web, "change", ["restart"]), ctx).catch((error: unknown) => error);
    expect(TendError.isInstance(failure) && failure.code).toBe("TEND_COMMAND_FAILED");
    expect((failure as Error).message).toBe("`launchctl bootstrap system /Library/LaunchDaemons/tend.web.plist` exited 5: Bootstrap failed: 5: Input/output error");
    expect(runner.lines.filter((line) => line.startsWith("launchctl bootstrap"))).toHaveLength(16);
    expect(ctx.slept.reduce((a, b) => a + b, 0)).toBe(15_000);
  });

  it("does not retry a label launchd reports disabled (119): the error says what to do", async () => {
    const runner = new RecordingRunner()
      .on("launchctl print system/tend.web", notLoaded)
      .on("launchctl bootstrap", { exitCode: 119, stderr: "/Library/LaunchDaemons/tend.web.plist: Service is disabled\nBootstrap failed: 119: Service is disabled" });
    const ctx = await context(runner);
    await expect(applyJob(change(web, "change", ["start"], false), ctx)).rejects.toThrow(/exited 119: .*Service is disabled/s);
    expect(runner.lines.filter((line) => line.startsWith("launchctl bootstrap"))).toHaveLength(1);
    expect(ctx.slept).toEqual([]);
  });

  it("gives up waiting for the label after 10 s and lets the bootstrap retries decide", async () => {
    const runner = new RecordingRunner().on("launchctl print system/tend.web", { exitCode: 0 });
    const ctx = await context(runner);
    await applyJob(change(web, "change", ["restart"]), ctx);
    expect(runner.lines.filter((line) => line === "launchctl print system/tend.web")).toHaveLength(21);
    expect(runner.lines.at(-1)).toBe("launchctl bootstrap system /Library/LaunchDaemons/tend.web.plist");
    expect(ctx.slept).toEqual(Array(20).fill(500));
  });

  it("a changed plist of a stopped KeepAlive job is reloaded, not kickstarted with the old definition", async () => {
    const runner = new RecordingRunner().on("launchctl print system/tend.web", { exitCode: 0 }, 2).on("launchctl print system/tend.web", notLoaded);
    await applyJob(change(web, "change", ["start"]), await context(runner));
    expect(runner.lines).toContain("launchctl bootout system/tend.web");
    expect(runner.lines.at(-1)).toBe("launchctl bootstrap system /Library/LaunchDaemons/tend.web.plist");
    expect(runner.lines.some((line) => line.includes("kickstart"))).toBe(false);
  });
});

describe("applyJob: operations on an unchanged plist", () => {
  it("restart (restartOn matched): kickstart -k", async () => {
    const runner = new RecordingRunner();
    await applyJob(change(web, "change", ["restart"], false), await context(runner));
    expect(runner.lines).toEqual(["launchctl print system/tend.web", "launchctl kickstart -k system/tend.web"]);
  });

  it("start of a loaded job without a process: kickstart", async () => {
    const runner = new RecordingRunner();
    await applyJob(change(web, "change", ["start"], false), await context(runner));
    expect(runner.lines).toEqual(["launchctl print system/tend.web", "launchctl kickstart system/tend.web"]);
  });

  it("start of a job booted out by hand: bootstrap", async () => {
    const runner = new RecordingRunner().on("launchctl print system/tend.web", notLoaded);
    await applyJob(change(web, "change", ["start"], false), await context(runner));
    expect(runner.lines).toEqual(["launchctl print system/tend.web", "launchctl bootstrap system /Library/LaunchDaemons/tend.web.plist"]);
  });

  it("stop: bootout and wait until the label is gone", async () => {
    const runner = new RecordingRunner().on("launchctl print system/tend.web", notLoaded);
    await applyJob(change(web, "change", ["stop"], false), await context(runner));
    expect(runner.lines).toEqual(["launchctl bootout system/tend.web", "launchctl print system/tend.web"]);
  });

  it("reload: launchctl kill with the service's reloadSignal", async () => {
    const runner = new RecordingRunner();
    const ctx = await context(runner);
    await applyJob(change(web, "change", ["reload"], false), ctx);
    expect(runner.lines).toEqual(["launchctl kill SIGHUP system/tend.web"]);
    expect(ctx.logged).toEqual(["service:web: sent SIGHUP to system/tend.web"]);
  });

  it("reload without a reloadSignal is refused, never turned into a restart", async () => {
    const plain = service({ name: "web", exec: "/opt/web/bin/server" });
    const runner = new RecordingRunner();
    await expect(applyJob(change(plain, "change", ["reload"], false), await context(runner))).rejects.toThrow(
      "service:web lists resources in reloadOn, but it cannot reload on launchd",
    );
    expect(runner.lines).toEqual([]);
  });

  it("enable and disable: launchd's boot override", async () => {
    const runner = new RecordingRunner();
    await applyJob(change(web, "change", ["enable"], false), await context(runner));
    await applyJob(change(web, "change", ["disable"], false), await context(runner));
    expect(runner.lines).toEqual(["launchctl enable system/tend.web", "launchctl disable system/tend.web"]);
  });
});

describe("applyJob: timers", () => {
  const tick = timer({ name: "tick", exec: "/opt/tick", schedule: "@hourly" });

  it("a new timer is enabled and bootstrapped (loading arms it; it does not run it)", async () => {
    const runner = new RecordingRunner().on("launchctl print system/tend.tick", { exitCode: 113 });
    await applyJob(change(tick, "add", ["enable", "start"]), await context(runner));
    expect(runner.lines).toEqual([
      "launchctl enable system/tend.tick",
      "launchctl print system/tend.tick",
      "launchctl bootstrap system /Library/LaunchDaemons/tend.tick.plist",
    ]);
  });

  it("a loaded timer with an unchanged plist is already armed: nothing is kickstarted", async () => {
    const runner = new RecordingRunner();
    await applyJob(change(tick, "change", ["start"], false), await context(runner));
    expect(runner.lines).toEqual(["launchctl print system/tend.tick"]);
  });
});

describe("applyJob under --root", () => {
  it("runs nothing: the plist in the image loads at boot", async () => {
    const runner = new RecordingRunner();
    const ctx = await context(runner, { offline: true });
    await applyJob(change(web, "add", ["enable", "start"]), ctx);
    await applyJob(change(web, "change", ["disable"], false), ctx);
    expect(runner.lines).toEqual([]);
    expect(ctx.logged).toEqual(["service:web: not disabled: launchd keeps its boot overrides outside the image, so the job loads at boot"]);
  });
});

describe("removeJob", () => {
  it("boots the job out, tolerating a label that is not loaded (3)", async () => {
    const runner = new RecordingRunner().on("launchctl bootout system/tend.web", { exitCode: 3, stderr: "Boot-out failed: 3: No such process" });
    await removeJob(change(web, "remove", []), await context(runner));
    expect(runner.lines).toEqual(["launchctl bootout system/tend.web"]);
  });

  it("tolerates 113 too, and sets a disabled override back to enabled", async () => {
    const kept = service({ name: "web", exec: "/opt/web", desired: { state: "running", enabled: false } });
    const runner = new RecordingRunner().on("launchctl bootout system/tend.web", notLoaded);
    await removeJob(change(kept, "remove", []), await context(runner));
    expect(runner.lines).toEqual(["launchctl bootout system/tend.web", "launchctl enable system/tend.web"]);
  });

  it("fails on any other bootout error, so the plist is not deleted under a running job", async () => {
    const runner = new RecordingRunner().on("launchctl bootout system/tend.web", { exitCode: 1, stderr: "Boot-out failed: 1: Operation not permitted" });
    await expect(removeJob(change(web, "remove", []), await context(runner))).rejects.toThrow(/Operation not permitted/);
  });

  it("runs nothing under --root", async () => {
    const runner = new RecordingRunner();
    await removeJob(change(web, "remove", []), await context(runner, { offline: true }));
    expect(runner.lines).toEqual([]);
  });
});
