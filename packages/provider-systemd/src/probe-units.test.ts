import { readFileSync } from "node:fs";
import { service, ServiceSchema, timer, TimerSchema } from "@tend/core";
import { readContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { probeUnits } from "./probe-units.js";

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
const svc = (name: string, fields: Parameters<typeof service>[1] = {}) => ServiceSchema.parse(service(name, { exec: "/bin/x", ...fields }));

/** The fixture's show blocks of these units only, in this order (a show of just them). */
function showOf(...units: string[]): string {
  const blocks = new Map(fixture("show-probe.txt").split(/\n\s*\n/).map((block) => [/^Id=(.*)$/m.exec(block)![1]!, block]));
  return units.map((unit) => blocks.get(unit)!).join("\n\n");
}

const LISTED = JSON.stringify([
  { unit: "tend-web.service", load: "loaded", active: "active", sub: "running", description: "web" },
  { unit: "tend-crash.service", load: "loaded", active: "activating", sub: "auto-restart", description: "crash" },
  { unit: "tend-failed.service", load: "loaded", active: "failed", sub: "failed", description: "failed" },
  { unit: "tend-once.service", load: "loaded", active: "active", sub: "exited", description: "once" },
  { unit: "tend-backup.timer", load: "loaded", active: "active", sub: "waiting", description: "backup" },
]);

describe("probeUnits", () => {
  const resources = [svc("web"), svc("crash"), svc("failed"), svc("once"), TimerSchema.parse(timer("backup", { exec: "/bin/true", schedule: "@daily" })), ServiceSchema.parse(service("nope"))];

  it("reads every unit's state in one list-units, a running service's main pid from its control group, and shows only the rest", async () => {
    const runner = new RecordingRunner()
      .on("systemctl list-units", { stdout: LISTED })
      .on("/bin/sh -c", { stdout: "tend-web.service 104 1\n" })
      .on("systemctl show", { stdout: showOf("tend-crash.service", "tend-failed.service", "tend-once.service", "tend-backup.timer", "nope.service") });
    const probes = await probeUnits(resources, await readContext({ init: "systemd", runner }));
    expect(runner.lines).toEqual([
      "systemctl list-units --all --output=json -- tend-web.service tend-crash.service tend-failed.service tend-once.service tend-backup.timer nope.service",
      expect.stringMatching(/^\/bin\/sh -c [\s\S]*cgroup\.procs[\s\S]* sh tend-web\.service$/),
      "systemctl show -p Id,LoadState,ActiveState,SubState,InvocationID,NRestarts,MainPID,Result -- tend-crash.service tend-failed.service tend-once.service tend-backup.timer nope.service",
    ]);
    expect(Object.fromEntries(probes)).toEqual({
      "service:web": { up: true, identity: "pid 104", detail: "tend-web.service active/running, pid 104" },
      "service:crash": { up: false, identity: "5b76b954f8c149cf8a90bdfa3d28b616/1", detail: "tend-crash.service activating/auto-restart, result exit-code, 1 restart" },
      "service:failed": { up: false, identity: "c8f8283f63d44200857b926723aae729/0", detail: "tend-failed.service failed/failed, result exit-code" },
      "service:once": { up: true, identity: "d3e3a01806ea49fd8a2d12a60d20c012/0", detail: "tend-once.service active/exited" },
      "timer:backup": { up: true, identity: "ed382955d62c49528b794f8b5ae2bb78/", detail: "tend-backup.timer active/waiting" },
      "service:nope": { up: false, identity: "/0", detail: "nope.service not-found, inactive/dead" },
    });
  });

  it("gives a running service the same identity whether its pid came from its group or from show", async () => {
    const plain = new RecordingRunner().on("systemctl list-units", { stdout: LISTED }).on("/bin/sh -c", { stdout: "tend-web.service 104 1\n" });
    // a second process in the group (a reload running): the group is not plain, show answers
    const busy = new RecordingRunner()
      .on("systemctl list-units", { stdout: LISTED })
      .on("/bin/sh -c", { stdout: "tend-web.service 104 1\ntend-web.service 180 1\n" })
      .on("systemctl show", { stdout: showOf("tend-web.service") });
    const [a, b] = await Promise.all([plain, busy].map(async (runner) => (await probeUnits([svc("web")], await readContext({ init: "systemd", runner }))).get("service:web")!));
    expect(a).toEqual(b);
    expect(busy.lines.at(-1)).toBe("systemctl show -p Id,LoadState,ActiveState,SubState,InvocationID,NRestarts,MainPID,Result -- tend-web.service");
  });

  it("sees a restart inside the settle window as a new identity: a new main pid, or a new count of restarts", async () => {
    const group = (pid: number) => ({ stdout: `tend-web.service ${pid} 1\n` });
    const running = new RecordingRunner().on("systemctl list-units", { stdout: LISTED }).on("/bin/sh -c", group(104), 1).on("/bin/sh -c", group(230));
    const ctx = await readContext({ init: "systemd", runner: running });
    const [first, second] = [await probeUnits([svc("web")], ctx), await probeUnits([svc("web")], ctx)].map((p) => p.get("service:web")!);
    expect(first.up && second.up).toBe(true);
    expect(second.identity).not.toBe(first.identity);

    const before = "Id=tend-once.service\nActiveState=active\nSubState=exited\nInvocationID=aaa\nNRestarts=0\n";
    const after = "Id=tend-once.service\nActiveState=active\nSubState=exited\nInvocationID=aaa\nNRestarts=1\n";
    const oneshot = new RecordingRunner().on("systemctl list-units", { stdout: LISTED }).on("systemctl show", { stdout: before }, 1).on("systemctl show", { stdout: after });
    const octx = await readContext({ init: "systemd", runner: oneshot });
    const [once1, once2] = [await probeUnits([svc("once")], octx), await probeUnits([svc("once")], octx)].map((p) => p.get("service:once")!);
    expect(once2.identity).not.toBe(once1.identity);
  });
});
