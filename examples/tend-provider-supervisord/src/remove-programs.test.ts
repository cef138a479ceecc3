import type { ResourceChange, Service } from "@tend/core/contract";
import { applyContext, build, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { stopPrograms, unloadRemoved } from "./remove-programs.js";

const CTL = "supervisorctl -c /etc/supervisor/supervisord.conf";
const removal = (service: Service): ResourceChange<"service"> => ({ key: `service:${service.name}`, action: "remove", resource: service, ops: [], filesChanged: true, reasons: [] });
const web = build.service("web", { exec: "/opt/web" });
const old = build.service("old", { exec: "/opt/old" });

describe("removing programs", () => {
  it("stops a wave with one stop; not running or unknown is already stopped", async () => {
    const runner = new RecordingRunner().on(`${CTL} stop`, { exitCode: 1, stdout: "tend-web: stopped\ntend-old: ERROR (no such process)\n" });
    const ctx = await applyContext({ init: "supervisord", runner });
    expect((await stopPrograms([removal(web), removal(old)], ctx)).size).toBe(0);
    expect(runner.lines).toEqual([`${CTL} stop tend-web tend-old`]);
  });

  it("unloads the removed programs with one update after their files are gone", async () => {
    const runner = new RecordingRunner().on(`${CTL} update`, { exitCode: 1, stdout: "ERROR: no such group: tend-old\ntend-web: stopped\ntend-web: removed process group\n" });
    const ctx = await applyContext({ init: "supervisord", runner });
    const added = { ...removal(build.service("new", { exec: "/opt/new" })), action: "add" as const };
    await unloadRemoved([removal(web), removal(old), added], ["/etc/supervisor/conf.d/tend-web.conf"], ctx);
    expect(runner.lines).toEqual([`${CTL} update tend-web tend-old`]);
  });

  it("says which program supervisord would not remove", async () => {
    const runner = new RecordingRunner().on(`${CTL} update`, { exitCode: 1, stdout: "tend-web: stopped\ntend-web: has problems; not removing\n" });
    const ctx = await applyContext({ init: "supervisord", runner });
    await expect(unloadRemoved([removal(web)], [], ctx)).rejects.toThrow("tend-web: stopped; has problems; not removing");
  });

  it("asks nothing when nothing was removed", async () => {
    const runner = new RecordingRunner();
    const ctx = await applyContext({ init: "supervisord", runner });
    await unloadRemoved([{ ...removal(web), action: "change" }], [], ctx);
    expect(runner.lines).toEqual([]);
  });
});
