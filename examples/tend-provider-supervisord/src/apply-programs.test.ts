import { readFileSync } from "node:fs";
import type { Operation, ResourceChange, Service } from "@tend/core/contract";
import { applyContext, build, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { applyPrograms } from "./apply-programs.js";

const CTL = "supervisorctl -c /etc/supervisor/supervisord.conf";
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");

function change(service: Service, ops: Operation[], filesChanged = true): ResourceChange<"service"> {
  return { key: `service:${service.name}`, action: filesChanged ? "add" : "change", resource: service, ops, filesChanged, reasons: [] };
}

async function applied(changes: ResourceChange<"service">[], runner: RecordingRunner) {
  const ctx = await applyContext({ init: "supervisord", runner });
  const failures = await applyPrograms(changes, ctx);
  return { failures, lines: runner.lines, logged: ctx.logged };
}

const web = build.service("web", { exec: "/opt/web/bin/server" });
const worker = build.service("worker", { exec: "/opt/worker/bin/run", restart: "always" });

describe("applyPrograms", () => {
  it("loads a wave of new programs with one update; autostart starts them", async () => {
    const runner = new RecordingRunner().on(`${CTL} update`, { stdout: "tend-web: added process group\ntend-worker: added process group\n" });
    const { failures, lines } = await applied([change(web, ["enable", "start"]), change(worker, ["enable", "start"])], runner);
    expect(lines).toEqual([`${CTL} update tend-web tend-worker`]);
    expect(failures.size).toBe(0);
    expect(runner.calls[0]?.timeoutMs, "15 s more for each program supervisorctl waits on").toBe(60_000);
  });

  it("lets update restart a changed program, and restarts one whose file supervisord already had", async () => {
    const runner = new RecordingRunner().on(`${CTL} update`, { stdout: "tend-web: stopped\ntend-web: updated process group\n" }).on(`${CTL} restart`, { stdout: "tend-worker: stopped\ntend-worker: started\n" });
    const { failures, lines } = await applied([change(web, ["restart"]), change(worker, ["restart"])], runner);
    expect(lines).toEqual([`${CTL} update tend-web tend-worker`, `${CTL} restart tend-worker`]);
    expect(failures.size).toBe(0);
  });

  it("restarts and reloads programs whose files did not change without loading anything", async () => {
    const hup = build.service("hup", { exec: "/opt/hup", reloadSignal: "HUP" });
    const runner = new RecordingRunner().on(`${CTL} restart`, { stdout: "tend-web: stopped\ntend-web: started\n" }).on(`${CTL} signal HUP`, { stdout: "tend-hup: signalled\n" });
    const { failures, lines } = await applied([change(web, ["restart"], false), change(hup, ["reload"], false)], runner);
    expect(lines).toEqual([`${CTL} restart tend-web`, `${CTL} signal HUP tend-hup`]);
    expect(failures.size).toBe(0);
  });

  it("starts a loaded program without autostart, and stops one supervisord started though it is to stay stopped", async () => {
    const manual = build.service("manual", { exec: "/opt/m", desired: { state: "running", enabled: false } });
    const parked = build.service("parked", { exec: "/opt/p", desired: { state: "stopped", enabled: true } });
    const runner = new RecordingRunner()
      .on(`${CTL} update`, { stdout: "tend-manual: added process group\ntend-parked: added process group\n" })
      .on(`${CTL} status`, { exitCode: 3, stdout: "tend-manual   STOPPED   Not started\ntend-parked   STOPPED   Not started\n" }, 1)
      .on(`${CTL} status`, { exitCode: 3, stdout: "tend-manual   STOPPED   Not started\ntend-parked   STARTING  \n" })
      .on(`${CTL} stop`, { stdout: "tend-parked: stopped\n" })
      .on(`${CTL} start`, { stdout: "tend-manual: started\n" });
    const { failures, lines, logged } = await applied([change(manual, ["start"]), change(parked, ["enable"])], runner);
    expect(lines).toEqual([`${CTL} update tend-manual tend-parked`, `${CTL} status`, `${CTL} status`, `${CTL} stop tend-parked`, `${CTL} start tend-manual`]);
    expect(failures.size).toBe(0);
    expect(logged).toEqual(["service:parked: supervisord starts a program it loads with autostart=true; stopped it again"]);
  });

  it("fails each program supervisord reports an error for, and only those", async () => {
    const runner = new RecordingRunner().on(`${CTL} start`, { exitCode: 1, stdout: fixture("start-errors.txt").replace("tend-missing", "tend-worker") });
    const { failures } = await applied([change(web, ["start"], false), change(worker, ["start"], false)], runner.on(`${CTL} update`, { stdout: "" }));
    expect([...failures.keys()]).toEqual(["service:worker"]);
    expect(String((failures.get("service:worker") as Error).message)).toContain("tend-worker: ERROR (no such file)");
  });

  it("fails the whole wave when update cannot read the configuration", async () => {
    const runner = new RecordingRunner().on(`${CTL} update`, { exitCode: 1, stdout: fixture("update-unreadable.txt") });
    const { failures, lines } = await applied([change(web, ["enable", "start"]), change(worker, ["enable", "start"])], runner);
    expect(lines).toEqual([`${CTL} update tend-web tend-worker`]);
    expect([...failures.keys()]).toEqual(["service:web", "service:worker"]);
    expect(String((failures.get("service:web") as Error).message)).toContain("CANT_REREAD");
  });

  it("runs nothing under --root", async () => {
    const runner = new RecordingRunner();
    const ctx = await applyContext({ init: "supervisord", runner, offline: true });
    expect((await applyPrograms([change(web, ["enable"])], ctx)).size).toBe(0);
    expect(runner.lines).toEqual([]);
  });
});
