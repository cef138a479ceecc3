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

/** Running services beyond the fixture's, so that a probe lists and reads groups rather than showing each unit. */
const more = ["s1", "s2", "s3", "s4"];
const LISTED = JSON.stringify([
  { unit: "tend-web.service", load: "loaded", active: "active", sub: "running", description: "web" },
  { unit: "tend-crash.service", load: "loaded", active: "activating", sub: "auto-restart", description: "crash" },
  { unit: "tend-failed.service", load: "loaded", active: "failed", sub: "failed", description: "failed" },
  { unit: "tend-once.service", load: "loaded", active: "active", sub: "exited", description: "once" },
  { unit: "tend-backup.timer", load: "loaded", active: "active", sub: "waiting", description: "backup" },
  ...more.map((name) => ({ unit: `tend-${name}.service`, load: "loaded", active: "active", sub: "running", description: name })),
]);
const GROUPS = ["tend-web.service 104 1", ...more.map((name, i) => `tend-${name}.service ${200 + i} 1`), ""].join("\n");
const SHOW = "systemctl show -p Id,LoadState,ActiveState,SubState,InvocationID,NRestarts,MainPID,Result -- ";

describe("probeUnits", () => {
  const fixtureUnits = [svc("web"), svc("crash"), svc("failed"), svc("once"), TimerSchema.parse(timer("backup", { exec: "/bin/true", schedule: "@daily" })), ServiceSchema.parse(service("nope"))];
  const expected = {
    "service:web": { up: true, identity: "pid 104", detail: "tend-web.service active/running, pid 104" },
    "service:crash": { up: false, identity: "5b76b954f8c149cf8a90bdfa3d28b616/1", detail: "tend-crash.service activating/auto-restart, result exit-code, 1 restart" },
    "service:failed": { up: false, identity: "c8f8283f63d44200857b926723aae729/0", detail: "tend-failed.service failed/failed, result exit-code" },
    "service:once": { up: true, identity: "d3e3a01806ea49fd8a2d12a60d20c012/0", detail: "tend-once.service active/exited" },
    "timer:backup": { up: true, identity: "ed382955d62c49528b794f8b5ae2bb78/", detail: "tend-backup.timer active/waiting" },
    "service:nope": { up: false, identity: "/0", detail: "nope.service not-found, inactive/dead" },
  };

  it("shows a few units in one show: up only when active; a running service's identity its main pid, another's its invocation and restarts", async () => {
    const runner = new RecordingRunner().on("systemctl show", { stdout: fixture("show-probe.txt") });
    const probes = await probeUnits(fixtureUnits, await readContext({ init: "systemd", runner }));
    expect(runner.lines).toEqual([`${SHOW}tend-web.service tend-crash.service tend-failed.service tend-once.service tend-backup.timer nope.service`]);
    expect(Object.fromEntries(probes)).toEqual(expected);
  });

  it("reads many units' states in one list-units, the running services' main pids from their groups, and shows only the rest", async () => {
    const runner = new RecordingRunner()
      .on("systemctl list-units", { stdout: LISTED })
      .on("/bin/sh -c", { stdout: GROUPS })
      .on("systemctl show", { stdout: showOf("tend-crash.service", "tend-failed.service", "tend-once.service", "tend-backup.timer", "nope.service") });
    const probes = await probeUnits([...fixtureUnits, ...more.map((name) => svc(name))], await readContext({ init: "systemd", runner }));
    const extra = more.map((name) => `tend-${name}.service`).join(" ");
    expect(runner.lines).toEqual([
      `systemctl list-units --all --output=json -- tend-web.service tend-crash.service tend-failed.service tend-once.service tend-backup.timer nope.service ${extra}`,
      expect.stringMatching(new RegExp(`^/bin/sh -c [\\s\\S]*cgroup\\.procs[\\s\\S]* sh tend-web\\.service ${extra.replaceAll(".", "\\.")}$`)),
      `${SHOW}tend-crash.service tend-failed.service tend-once.service tend-backup.timer nope.service`,
    ]);
    expect(Object.fromEntries([...probes].filter(([key]) => key in expected))).toEqual(expected);
    expect(probes.get("service:s2")).toEqual({ up: true, identity: "pid 201", detail: "tend-s2.service active/running, pid 201" });
  });

  it("gives a running service the same identity whether its pid came from its group or from show", async () => {
    const many = [svc("web"), ...more.map((name) => svc(name)), svc("crash"), svc("failed"), svc("once"), svc("x")];
    const plain = new RecordingRunner().on("systemctl list-units", { stdout: LISTED }).on("/bin/sh -c", { stdout: GROUPS }).on("systemctl show", { stdout: "" });
    // a second process in web's group (a reload running): its group is not plain, show answers for it
    const busy = new RecordingRunner()
      .on("systemctl list-units", { stdout: LISTED })
      .on("/bin/sh -c", { stdout: `tend-web.service 180 1\n${GROUPS}` })
      .on("systemctl show", { stdout: showOf("tend-web.service") });
    const [a, b] = await Promise.all([plain, busy].map(async (runner) => (await probeUnits(many, await readContext({ init: "systemd", runner }))).get("service:web")!));
    expect(a).toEqual(b);
    expect(busy.lines.at(-1)).toMatch(/^systemctl show .* -- tend-web\.service /);
  });

  it("names tend's units by pattern past 500, to list-units and to the groups' shell, and takes a group's pid only for a unit that runs", async () => {
    const names = Array.from({ length: 600 }, (_, i) => `b${i}`);
    const listed = JSON.stringify(
      names.map((name, i) => ({ unit: `tend-${name}.service`, load: "loaded", active: i === 0 ? "failed" : "active", sub: i === 0 ? "failed" : "running", description: name })),
    );
    // b0 failed, but a process it left is still in its group: not a main pid
    const groups = names.map((name, i) => `tend-${name}.service ${1000 + i} 1`).join("\n");
    const runner = new RecordingRunner()
      .on("systemctl list-units", { stdout: listed })
      .on("/bin/sh -c", { stdout: groups })
      .on("systemctl show", { stdout: "Id=tend-b0.service\nActiveState=failed\nSubState=failed\nInvocationID=bbb\nNRestarts=0\nMainPID=0\n" });
    const probes = await probeUnits([...names.map((name) => svc(name)), ServiceSchema.parse(service("ssh"))], await readContext({ init: "systemd", runner }));
    expect(runner.lines[0]).toBe("systemctl list-units --all --output=json -- tend-* ssh.service");
    expect(runner.lines[1]).toMatch(/^\/bin\/sh -c [\s\S]*cgroup\.procs[\s\S]* sh tend-\*\.service$/);
    expect(runner.lines[2]).toBe(`${SHOW}tend-b0.service ssh.service`);
    expect(probes.get("service:b0")).toMatchObject({ up: false, identity: "bbb/0" });
    expect(probes.get("service:b599")).toEqual({ up: true, identity: "pid 1599", detail: "tend-b599.service active/running, pid 1599" });
  });

  it("sees a restart inside the settle window as a new identity: a new main pid, or a new count of restarts", async () => {
    const web = (pid: number) => `Id=tend-web.service\nActiveState=active\nSubState=running\nInvocationID=aaa\nNRestarts=0\nMainPID=${pid}\n`;
    const running = new RecordingRunner().on("systemctl show", { stdout: web(104) }, 1).on("systemctl show", { stdout: web(230) });
    const ctx = await readContext({ init: "systemd", runner: running });
    const [first, second] = [await probeUnits([svc("web")], ctx), await probeUnits([svc("web")], ctx)].map((p) => p.get("service:web")!);
    expect(first.up && second.up).toBe(true);
    expect(second.identity).not.toBe(first.identity);

    const once = (restarts: number) => `Id=tend-once.service\nActiveState=active\nSubState=exited\nInvocationID=aaa\nNRestarts=${restarts}\nMainPID=0\n`;
    const oneshot = new RecordingRunner().on("systemctl show", { stdout: once(0) }, 1).on("systemctl show", { stdout: once(1) });
    const octx = await readContext({ init: "systemd", runner: oneshot });
    const [once1, once2] = [await probeUnits([svc("once")], octx), await probeUnits([svc("once")], octx)].map((p) => p.get("service:once")!);
    expect(once2.identity).not.toBe(once1.identity);
  });
});
