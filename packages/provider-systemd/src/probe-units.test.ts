import { readFileSync } from "node:fs";
import { service, ServiceSchema, timer, TimerSchema } from "@tend/core";
import { readContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { probeUnits } from "./probe-units.js";

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
const svc = (name: string, fields: Parameters<typeof service>[1] = {}) => ServiceSchema.parse(service(name, { exec: "/bin/x", ...fields }));

describe("probeUnits", () => {
  it("reads every unit in one show: up only when active, identity from InvocationID and NRestarts", async () => {
    const runner = new RecordingRunner().on("systemctl show", { stdout: fixture("show-probe.txt") });
    const resources = [svc("web"), svc("crash"), svc("failed"), svc("once"), TimerSchema.parse(timer("backup", { exec: "/bin/true", schedule: "@daily" })), ServiceSchema.parse(service("nope"))];
    const probes = await probeUnits(resources, await readContext({ init: "systemd", runner }));
    expect(runner.lines).toEqual([
      "systemctl show -p Id,LoadState,ActiveState,SubState,InvocationID,NRestarts,MainPID,Result -- tend-web.service tend-crash.service tend-failed.service tend-once.service tend-backup.timer nope.service",
    ]);
    expect(Object.fromEntries(probes)).toEqual({
      "service:web": { up: true, identity: "d0fe99e1db8440b2a4a8445ac7fe4695/0", detail: "tend-web.service active/running, pid 104" },
      "service:crash": { up: false, identity: "5b76b954f8c149cf8a90bdfa3d28b616/1", detail: "tend-crash.service activating/auto-restart, result exit-code, 1 restart" },
      "service:failed": { up: false, identity: "c8f8283f63d44200857b926723aae729/0", detail: "tend-failed.service failed/failed, result exit-code" },
      "service:once": { up: true, identity: "d3e3a01806ea49fd8a2d12a60d20c012/0", detail: "tend-once.service active/exited" },
      "timer:backup": { up: true, identity: "ed382955d62c49528b794f8b5ae2bb78/", detail: "tend-backup.timer active/waiting" },
      "service:nope": { up: false, identity: "/0", detail: "nope.service not-found, inactive/dead" },
    });
  });

  it("sees a restart inside the settle window as a new identity", async () => {
    const before = "Id=tend-web.service\nActiveState=active\nSubState=running\nInvocationID=aaa\nNRestarts=0\n";
    const after = "Id=tend-web.service\nActiveState=active\nSubState=running\nInvocationID=aaa\nNRestarts=1\n";
    const runner = new RecordingRunner().on("systemctl show", { stdout: before }, 1).on("systemctl show", { stdout: after });
    const ctx = await readContext({ init: "systemd", runner });
    const first = await probeUnits([svc("web")], ctx);
    const second = await probeUnits([svc("web")], ctx);
    expect(first.get("service:web")!.up && second.get("service:web")!.up).toBe(true);
    expect(second.get("service:web")!.identity).not.toBe(first.get("service:web")!.identity);
  });
});
