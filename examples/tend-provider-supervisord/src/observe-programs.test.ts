import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { applyContext, build, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { observePrograms } from "./observe-programs.js";
import { probePrograms } from "./probe-programs.js";
import { renderProgram } from "./render-program.js";

const CTL = "supervisorctl -c /etc/supervisor/supervisord.conf";
const STATUS = "tend-web                         RUNNING   pid 81, uptime 0:00:02\ntend-once                        STOPPED   Not started\nother                            RUNNING   pid 9, uptime 1:00:00\n";
const web = build.service("web", { exec: "/opt/web" });
const once = build.service("once", { exec: "/opt/once", desired: { state: "stopped", enabled: false } });
const gone = build.service("gone", { exec: "/opt/gone" });

async function hostWith(runner: RecordingRunner, offline = false) {
  const ctx = await applyContext({ init: "supervisord", runner, offline });
  await mkdir(join(ctx.rootDir, "etc/supervisor/conf.d"), { recursive: true });
  for (const service of [web, once]) {
    const [artifact] = renderProgram(service);
    await writeFile(join(ctx.rootDir, artifact!.path), artifact!.content);
  }
  return ctx;
}

describe("observePrograms", () => {
  it("asks supervisord once for every program and reads autostart from each file", async () => {
    const runner = new RecordingRunner().on(`${CTL} status`, { exitCode: 3, stdout: STATUS });
    const observed = await observePrograms([web, once, gone], await hostWith(runner));
    expect(runner.lines).toEqual([`${CTL} status`]);
    expect(observed.get("service:web")).toEqual({ exists: true, state: "running", enabled: true, details: { supervisord: "RUNNING", pid: 81, description: "pid 81, uptime 0:00:02" } });
    expect(observed.get("service:once")).toEqual({ exists: true, state: "stopped", enabled: false, details: { supervisord: "STOPPED", description: "Not started" } });
    expect(observed.get("service:gone")).toEqual({ exists: false, state: "stopped", enabled: false });
  });

  it("fails with TEND_SUPERVISORD_UNREACHABLE when supervisorctl cannot reach supervisord", async () => {
    const runner = new RecordingRunner().on(`${CTL} status`, { exitCode: 4, stdout: "unix:///var/run/supervisor.sock no such file\n" });
    await expect(observePrograms([web], await hostWith(runner))).rejects.toMatchObject({ code: "TEND_SUPERVISORD_UNREACHABLE" });
  });

  it("under --root, runs nothing: a program exists when its file does", async () => {
    const runner = new RecordingRunner();
    const observed = await observePrograms([web, gone], await hostWith(runner, true));
    expect(runner.lines).toEqual([]);
    expect(observed.get("service:web")).toEqual({ exists: true, enabled: true });
    expect(observed.get("service:gone")).toEqual({ exists: false, enabled: false });
  });
});

describe("probePrograms", () => {
  it("is up when RUNNING, with the pid as identity", async () => {
    const runner = new RecordingRunner().on(`${CTL} status`, { exitCode: 3, stdout: STATUS });
    const probes = await probePrograms([web, once, gone], await hostWith(runner));
    expect(probes.get("service:web")).toEqual({ up: true, identity: "81", detail: "tend-web                         RUNNING   pid 81, uptime 0:00:02" });
    expect(probes.get("service:once")).toMatchObject({ up: false, detail: "tend-once                        STOPPED   Not started" });
    expect(probes.get("service:gone")).toEqual({ up: false, detail: "supervisord has no program tend-gone" });
  });
});
