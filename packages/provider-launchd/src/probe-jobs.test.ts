import { ServiceSchema, TimerSchema, type Resource } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { fixture, withJobs } from "./__fixtures__/domain-prints.js";
import { probeJobs } from "./probe-jobs.js";

const service = (fields: Record<string, unknown>) => ServiceSchema.parse({ type: "service", ...fields });
type Job = { pid: number; status: string; label: string };

async function probeAll(resources: Resource[], jobs: Job[], scope?: "user") {
  const domain = scope ? "gui/1000" : "system";
  const printed = withJobs(fixture(scope ? "print-gui-domain-elided.txt" : "print-system-domain.txt"), jobs);
  const runner = new RecordingRunner().on(`launchctl print ${domain}`, { stdout: printed });
  const ctx = await applyContext({ init: "launchd", runner, ...(scope ? { scope } : {}) });
  return { probes: await probeJobs(resources, ctx), lines: runner.lines };
}

async function probe(fields: Record<string, unknown>, job?: Omit<Job, "label">, scope?: "user") {
  const resource = service(fields);
  const { probes, lines } = await probeAll([resource], job ? [{ ...job, label: `tend.${resource.name}` }] : [], scope);
  return { result: probes.get(`service:${resource.name}`), lines };
}

describe("probeJobs: one domain print for every job", () => {
  it("asks launchd once per domain, as many commands for 60 services as for 3", async () => {
    const counts: number[] = [];
    for (const size of [3, 60]) {
      const resources = Array.from({ length: size }, (_, i) => service({ name: `s${i}`, exec: "/opt/s", restart: "always" }));
      const { probes, lines } = await probeAll(resources, resources.map((r, i) => ({ pid: 1000 + i, status: "-", label: `tend.${r.name}` })));
      expect(probes.size).toBe(size);
      expect([...probes.values()].every((p) => p.up)).toBe(true);
      expect(lines).toEqual(["launchctl print system"]);
      counts.push(lines.length);
    }
    expect(counts[1]).toBe(counts[0]);
  });

  it("reads a user agent in gui/<uid>", async () => {
    const { result, lines } = await probe({ name: "brightness", exec: "/opt/b", restart: "on_failure", user: true }, { pid: 1076, status: "-" }, "user");
    expect(lines).toEqual(["launchctl print gui/1000"]);
    expect(result).toEqual({ up: true, identity: "pid 1076", detail: "tend.brightness: running as pid 1076" });
  });
});

describe("probeJobs: a job launchd keeps alive", () => {
  it("is up while it has a pid, and the pid is its identity", async () => {
    const { result } = await probe({ name: "web", exec: "/opt/web", restart: "always" }, { pid: 928, status: "-" });
    expect(result).toEqual({ up: true, identity: "pid 928", detail: "tend.web: running as pid 928" });
  });

  it("is down while loaded without a process (exited, throttled before a respawn)", async () => {
    const { result } = await probe({ name: "web", exec: "/opt/web", restart: "always" }, { pid: 0, status: "1" });
    expect(result).toEqual({ up: false, detail: "tend.web: not running, last exit status 1" });
  });

  it("is down when the label is not loaded", async () => {
    const { result } = await probe({ name: "web", exec: "/opt/web", restart: "always" });
    expect(result).toEqual({ up: false, detail: "tend.web is not loaded in system" });
  });

  it("is down when the domain does not exist (no GUI session)", async () => {
    const runner = new RecordingRunner().on("launchctl print gui/1000", { exitCode: 112, stderr: fixture("print-gui-domain-missing.stderr.txt") });
    const ctx = await applyContext({ init: "launchd", runner, scope: "user" });
    const agent = service({ name: "a", exec: "/opt/a", user: true, restart: "always" });
    expect((await probeJobs([agent], ctx)).get("service:a")).toEqual({ up: false, detail: "tend.a is not loaded in gui/1000" });
  });
});

describe("probeJobs: a job that runs once or on an interval", () => {
  it("is up when loaded and its last run exited 0, with no identity to compare", async () => {
    const { result } = await probe({ name: "sync", exec: "/opt/sync", launchd: { StartInterval: 900 } }, { pid: 0, status: "0" });
    expect(result).toEqual({ up: true, detail: "tend.sync: not running, last exit status 0" });
  });

  it("is up when loaded and not run yet; a loaded timer is up (armed)", async () => {
    expect((await probe({ name: "later", exec: "/opt/later" }, { pid: 0, status: "-" })).result).toEqual({ up: true, detail: "tend.later: not running, never exited" });
    const tick = TimerSchema.parse({ type: "timer", name: "tick", exec: "/opt/tick", schedule: "@hourly" });
    const { probes } = await probeAll([tick], [{ pid: 0, status: "-", label: "tend.tick" }]);
    expect(probes.get("timer:tick")?.up).toBe(true);
  });

  it("is up while its one run is still going, and the pid is not its identity (it may end in the window)", async () => {
    const { result } = await probe({ name: "login-notes", exec: "/usr/bin/open -a Notes" }, { pid: 1076, status: "-" });
    expect(result).toEqual({ up: true, detail: "tend.login-notes: running as pid 1076" });
  });

  it.each(["1", "78", "-9"])("is down when its last run failed or ended on a signal (%s)", async (status) => {
    const { result } = await probe({ name: "once", exec: "/opt/once" }, { pid: 0, status });
    expect(result?.up).toBe(false);
  });
});

describe("probeJobs when the domain print cannot be read: each job alone", () => {
  async function alone(fields: Record<string, unknown>, answer: { exitCode?: number; stdout?: string; stderr?: string }) {
    const resource = service(fields);
    const runner = new RecordingRunner().on("launchctl print system", { stdout: "system = {\n\ttype = system\n}\n" }).on(() => true, answer);
    const ctx = await applyContext({ init: "launchd", runner });
    return { result: (await probeJobs([resource], ctx)).get(`service:${resource.name}`), lines: runner.lines };
  }

  it("a KeepAlive job is up while running with a pid, and the pid is its identity", async () => {
    const { result, lines } = await alone({ name: "web", exec: "/opt/web", restart: "always" }, { stdout: fixture("print-system-daemon-running.txt") });
    expect(lines).toEqual(["launchctl print system", "launchctl print system/tend.web"]);
    expect(result).toEqual({ up: true, identity: "pid 928", detail: "tend.web: state = running, pid 928, runs 1" });
  });

  it("a KeepAlive job loaded without a process is down", async () => {
    const { result } = await alone({ name: "web", exec: "/opt/web", restart: "always" }, { stdout: fixture("print-gui-agent-watchpaths-exited-1.txt") });
    expect(result).toEqual({ up: false, detail: "tend.web: state = not running, runs 4, last exit code 1" });
  });

  it("a label that is not loaded is down", async () => {
    const { result } = await alone({ name: "web", exec: "/opt/web", restart: "always" }, { exitCode: 113, stderr: fixture("print-gui-service-not-found.stderr.txt") });
    expect(result).toEqual({ up: false, detail: "tend.web is not loaded in system" });
  });

  it("a run-once job is up after a clean run or before any, down after a failed or signalled one", async () => {
    expect((await alone({ name: "sync", exec: "/opt/sync" }, { stdout: fixture("print-gui-agent-interval-not-running.txt") })).result).toEqual({
      up: true,
      detail: "tend.sync: state = not running, runs 18, last exit code 0",
    });
    expect((await alone({ name: "later", exec: "/opt/later" }, { stdout: fixture("print-gui-agent-calendar-never-ran.txt") })).result?.up).toBe(true);
    expect((await alone({ name: "once", exec: "/opt/once" }, { stdout: fixture("print-gui-agent-watchpaths-exited-1.txt") })).result?.up).toBe(false);
    const signalled = fixture("print-gui-agent-interval-not-running.txt").replace("\tlast exit code = 0", "\tlast terminating signal = Killed: 9");
    expect((await alone({ name: "once", exec: "/opt/once" }, { stdout: signalled })).result).toEqual({
      up: false,
      detail: "tend.once: state = not running, runs 18, last terminating signal Killed: 9",
    });
  });
});
