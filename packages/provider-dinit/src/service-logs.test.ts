import { readFileSync } from "node:fs";
import type { Service } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { serviceLogs } from "./service-logs.js";

const STATUS = readFileSync(new URL("./__fixtures__/dinitctl-status-exec-failed.txt", import.meta.url), "utf8");

describe("serviceLogs", () => {
  it("shows dinitctl status and the tail of the service's log file", async () => {
    const runner = new RecordingRunner().on("dinitctl status", { stdout: STATUS }).on("tail", { stdout: "listening\npanic: bad config\n" });
    const ctx = await applyContext({ init: "dinit", runner });
    const lines = await serviceLogs({ type: "service", name: "web", exec: "/bin/web" }, ctx);
    expect(runner.lines).toEqual(["dinitctl status tend-web", `tail -n 20 -- ${ctx.rootDir}/var/log/tend-web.log`]);
    expect(lines).toEqual([
      "Service: tend-noexec",
      "    State: STOPPED (could not be launched)",
      "        Stage: executing command",
      "        Error: No such file or directory",
      "/var/log/tend-web.log:",
      "listening",
      "panic: bad config",
    ]);
  });

  it("reads a user service's log as the user", async () => {
    const runner = new RecordingRunner().on(/status/, { stdout: "" }).on("tail", { exitCode: 1, stderr: "tail: cannot open" });
    const ctx = await applyContext({ init: "dinit", runner, scope: "user" });
    const service: Service = { type: "service", name: "sync", exec: "/bin/sync", user: true };
    expect(await serviceLogs(service, ctx)).toEqual([]);
    expect(runner.calls[1]).toMatchObject({ argv: ["tail", "-n", "20", "--", `${ctx.rootDir}/home/alice/.local/state/tend/log/tend-sync.log`], asUser: { uid: 1000, gid: 1000 } });
  });
});
