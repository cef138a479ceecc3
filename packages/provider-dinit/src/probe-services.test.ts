import { readFileSync } from "node:fs";
import type { Service } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { probeServices } from "./probe-services.js";

const LIST = readFileSync(new URL("./__fixtures__/dinitctl-list.txt", import.meta.url), "utf8");
const tend = (name: string): Service => ({ type: "service", name, exec: `/bin/${name}` });

describe("probeServices", () => {
  it("reads health for all services from one dinitctl list; the pid is the identity", async () => {
    const runner = new RecordingRunner().on("dinitctl list", { stdout: LIST });
    const ctx = await applyContext({ init: "dinit", runner });
    const probes = await probeServices([tend("web"), tend("bad"), tend("ready"), tend("slow"), tend("gone"), { type: "service", name: "boot" }], ctx);
    expect(runner.lines).toEqual(["dinitctl list"]);
    expect(probes.get("service:web")).toEqual({ up: true, identity: "pid 26452", detail: "[{+}     ] tend-web (pid: 26452)" });
    expect(probes.get("service:bad")).toMatchObject({ up: false, detail: "[     {X}] tend-bad (exit status: 1)" });
    // Still waiting for its ready-notification: not up yet.
    expect(probes.get("service:ready")).toMatchObject({ up: false, identity: "pid 27135" });
    expect(probes.get("service:slow")).toMatchObject({ up: false });
    expect(probes.get("service:gone")).toEqual({ up: false, detail: "tend-gone is not loaded in dinit" });
    expect(probes.get("service:boot")).toEqual({ up: true, identity: "started", detail: "[[+]     ] boot" });
  });

  it("sees a restart loop as a new identity", async () => {
    const runner = new RecordingRunner()
      .on("dinitctl list", { stdout: "[[+]     ] tend-loop (pid: 30760)\n" }, 1)
      .on("dinitctl list", { stdout: "[[+]     ] tend-loop (pid: 30768)\n" }, 1);
    const ctx = await applyContext({ init: "dinit", runner });
    const first = await probeServices([tend("loop")], ctx);
    const second = await probeServices([tend("loop")], ctx);
    expect(first.get("service:loop")?.identity).not.toBe(second.get("service:loop")?.identity);
  });

  it("is down when dinit cannot be reached", async () => {
    const runner = new RecordingRunner().on("dinitctl list", { exitCode: 1, stderr: "dinitctl: connecting to socket: /run/dinitctl: Connection refused\n" });
    const ctx = await applyContext({ init: "dinit", runner });
    const probes = await probeServices([tend("web")], ctx);
    expect(probes.get("service:web")).toEqual({ up: false, detail: "cannot reach dinit: dinitctl: connecting to socket: /run/dinitctl: Connection refused" });
  });
});
