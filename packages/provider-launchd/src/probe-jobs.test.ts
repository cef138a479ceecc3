import { readFileSync } from "node:fs";
import { ServiceSchema } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { probeJobs } from "./probe-jobs.js";

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
const service = (fields: Record<string, unknown>) => ServiceSchema.parse({ type: "service", ...fields });

async function probe(fields: Record<string, unknown>, answer: { exitCode?: number; stdout?: string; stderr?: string }, scope?: "user") {
  const resource = service(fields);
  const runner = new RecordingRunner().on(() => true, answer);
  const ctx = await applyContext({ init: "launchd", runner, ...(scope ? { scope } : {}) });
  const result = (await probeJobs([resource], ctx)).get(`service:${resource.name}`);
  return { result, lines: runner.lines };
}

describe("probeJobs: a job launchd keeps alive", () => {
  it("is up while running with a pid, and the pid is its identity", async () => {
    const { result, lines } = await probe({ name: "web", exec: "/opt/web", restart: "always" }, { stdout: fixture("print-system-daemon-running.txt") });
    expect(lines).toEqual(["launchctl print system/tend.web"]);
    expect(result).toEqual({ up: true, identity: "pid 928", detail: "tend.web: state = running, pid 928, runs 1" });
  });

  it("reads a user agent in gui/<uid>", async () => {
    const { result, lines } = await probe(
      { name: "brightness", exec: "/opt/b", restart: "on_failure", user: true },
      { stdout: fixture("print-gui-agent-keepalive-running.txt") },
      "user",
    );
    expect(lines).toEqual(["launchctl print gui/1000/tend.brightness"]);
    expect(result).toMatchObject({ up: true, identity: "pid 1076" });
  });

  it("is down while loaded without a process (exited, throttled before a respawn)", async () => {
    const { result } = await probe({ name: "web", exec: "/opt/web", restart: "always" }, { stdout: fixture("print-gui-agent-watchpaths-exited-1.txt") });
    expect(result).toEqual({ up: false, detail: "tend.web: state = not running, runs 4, last exit code 1" });
  });

  it("is down when the label is not loaded", async () => {
    const { result } = await probe({ name: "web", exec: "/opt/web", restart: "always" }, { exitCode: 113, stderr: fixture("print-gui-service-not-found.stderr.txt") });
    expect(result).toEqual({ up: false, detail: "tend.web is not loaded in system" });
  });
});

describe("probeJobs: a job that runs once or on an interval", () => {
  it("is up when loaded and its last run exited 0, with no identity to compare", async () => {
    const { result } = await probe({ name: "sync", exec: "/opt/sync", launchd: { StartInterval: 900 } }, { stdout: fixture("print-gui-agent-interval-not-running.txt") });
    expect(result).toEqual({ up: true, detail: "tend.sync: state = not running, runs 18, last exit code 0" });
  });

  it("is up when loaded and not run yet", async () => {
    const { result } = await probe({ name: "later", exec: "/opt/later" }, { stdout: fixture("print-gui-agent-calendar-never-ran.txt") });
    expect(result?.up).toBe(true);
  });

  it("is up while its one run is still going, and the pid is not its identity (it may end in the window)", async () => {
    const { result } = await probe({ name: "login-notes", exec: "/usr/bin/open -a Notes" }, { stdout: fixture("print-gui-agent-keepalive-running.txt") });
    expect(result).toEqual({ up: true, detail: "tend.login-notes: state = running, pid 1076, runs 1" });
  });

  it("is down when its last run failed", async () => {
    const { result } = await probe({ name: "once", exec: "/opt/once" }, { stdout: fixture("print-gui-agent-watchpaths-exited-1.txt") });
    expect(result?.up).toBe(false);
  });

  it("is down when its last run ended on a signal", async () => {
    const signalled = fixture("print-gui-agent-interval-not-running.txt").replace("\tlast exit code = 0", "\tlast terminating signal = Killed: 9");
    const { result } = await probe({ name: "once", exec: "/opt/once" }, { stdout: signalled });
    expect(result).toEqual({ up: false, detail: "tend.once: state = not running, runs 18, last terminating signal Killed: 9" });
  });
});
