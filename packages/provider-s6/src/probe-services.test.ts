import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ServiceSchema } from "@tend/core";
import { RecordingRunner, applyContext } from "@tend/testkit";
import { probeServices } from "./probe-services.js";

const states = async () =>
  (await readFile(new URL("./__fixtures__/svstat-states.txt", import.meta.url), "utf8"))
    .replaceAll("/tmp/s6cap/scan/", "/run/s6-rc/servicedirs/")
    .replaceAll("/tmp/s6cap/nonexistent", "/run/s6-rc/servicedirs/tend-gone");
const services = ["up", "exit3", "crash", "ready", "notready", "gone"].map((name) => ServiceSchema.parse({ type: "service", name, exec: "/bin/x" }));

describe("probeServices (captured s6-svstat states)", () => {
  it("reads every service with one command and tells up, identity and why", async () => {
    const runner = new RecordingRunner().on("/bin/sh -c", { stdout: await states() });
    const ctx = await applyContext({ init: "s6", runner });
    for (const name of ["tend-ready", "tend-notready"]) {
      await mkdir(join(ctx.rootDir, "run/s6-rc/servicedirs", name), { recursive: true });
      await writeFile(join(ctx.rootDir, "run/s6-rc/servicedirs", name, "notification-fd"), "3\n");
    }
    const probes = await probeServices(services, ctx);
    expect(runner.calls).toHaveLength(1);
    expect(runner.calls[0]!.argv.slice(4)).toEqual(services.map((s) => `/run/s6-rc/servicedirs/tend-${s.name}`));
    expect(probes.get("service:up")).toEqual({
      up: true,
      identity: "31661:@400000006b10453522f59a7b",
      detail: "/run/s6-rc/servicedirs/tend-up: up (pid 31661) 324 seconds",
    });
    expect(probes.get("service:exit3")).toEqual({
      up: false,
      detail: "/run/s6-rc/servicedirs/tend-exit3: down (exitcode 3) 324 seconds",
    });
    expect(probes.get("service:crash")).toMatchObject({ up: false, detail: expect.stringContaining("down (exitcode 1) 0 seconds, want up") });
    expect(probes.get("service:ready")).toMatchObject({ up: true, identity: "31685:@400000006b104535231395ee", detail: expect.stringContaining("ready") });
    // a program that uses notification-fd is up only once it said it is ready
    expect(probes.get("service:notready")).toMatchObject({ up: false, identity: "31696:@400000006b10453523053ed4", detail: expect.stringContaining("not ready yet") });
    expect(probes.get("service:gone")).toEqual({ up: false, detail: "/run/s6-rc/servicedirs/tend-gone: no s6-supervise runs on it" });
  });

  it("ignores readiness for a service without notification-fd (s6 never marks it ready)", async () => {
    const runner = new RecordingRunner().on("/bin/sh -c", { stdout: await states() });
    const ctx = await applyContext({ init: "s6", runner });
    const probes = await probeServices(services, ctx);
    expect(probes.get("service:notready")?.up).toBe(true);
  });
});
