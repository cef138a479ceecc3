import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { readServiceLogs } from "./read-service-logs.js";

describe("readServiceLogs", () => {
  it("tails a supervised service's log file", async () => {
    const runner = new RecordingRunner().on("tail", { stdout: "listening\npanic: bad config\n" });
    const ctx = await applyContext({ init: "openrc", runner });
    expect(await readServiceLogs({ type: "service", name: "web", exec: "/opt/web", restart: "always" }, ctx)).toEqual(["listening", "panic: bad config"]);
    expect(runner.lines).toEqual(["tail -n 20 -- /var/log/tend-web.log"]);
  });

  it("gives nothing when the log is missing, and has none for background or distro services", async () => {
    const runner = new RecordingRunner().on("tail", { exitCode: 1, stderr: "tail: cannot open" });
    const ctx = await applyContext({ init: "openrc", runner });
    expect(await readServiceLogs({ type: "service", name: "web", exec: "/opt/web", restart: "on_failure" }, ctx)).toEqual([]);
    expect(await readServiceLogs({ type: "service", name: "bg", exec: "/opt/bg" }, ctx)).toEqual([]);
    expect(await readServiceLogs({ type: "service", name: "sshd" }, ctx)).toEqual([]);
    expect(runner.lines).toEqual(["tail -n 20 -- /var/log/tend-web.log"]);
  });
});
