import { ServiceSchema } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { jobLogs } from "./job-logs.js";

const service = (fields: Record<string, unknown>) => ServiceSchema.parse({ type: "service", ...fields });

describe("jobLogs", () => {
  it("tails StandardErrorPath", async () => {
    const runner = new RecordingRunner().on("tail", { stdout: "starting\npanic: bad config\n" });
    const ctx = await applyContext({ init: "launchd", runner });
    const lines = await jobLogs(service({ name: "web", exec: "/opt/web", launchd: { StandardErrorPath: "/var/log/web.err", StandardOutPath: "/var/log/web.out" } }), ctx);
    expect(runner.calls.map((c) => c.argv)).toEqual([["tail", "-n", "20", "--", "/var/log/web.err"]]);
    expect(runner.calls[0]?.asUser).toBeUndefined();
    expect(lines).toEqual(["starting", "panic: bad config"]);
  });

  it("falls back to StandardOutPath, read as the user in a user scope", async () => {
    const runner = new RecordingRunner().on("tail", { stdout: "line\n" });
    const ctx = await applyContext({ init: "launchd", runner, scope: "user" });
    await jobLogs(service({ name: "sync-notes", exec: "/opt/s", user: true, launchd: { StandardOutPath: "/tmp/notes-sync.log" } }), ctx);
    expect(runner.calls[0]).toMatchObject({ argv: ["tail", "-n", "20", "--", "/tmp/notes-sync.log"], asUser: { uid: 1000, gid: 1000 } });
  });

  it("says so, and how to get logs, when the job sets no log path", async () => {
    const runner = new RecordingRunner();
    const ctx = await applyContext({ init: "launchd", runner });
    expect(await jobLogs(service({ name: "web", exec: "/opt/web" }), ctx)).toEqual([
      'launchd keeps no output for tend.web; set launchd = { StandardErrorPath: "/path/to/log" } to keep its errors',
    ]);
    expect(runner.lines).toEqual([]);
  });

  it("reports an unreadable log instead of failing", async () => {
    const runner = new RecordingRunner().on("tail", { exitCode: 1, stderr: "tail: /var/log/web.err: No such file or directory" });
    const ctx = await applyContext({ init: "launchd", runner });
    expect(await jobLogs(service({ name: "web", exec: "/opt/web", launchd: { StandardErrorPath: "/var/log/web.err" } }), ctx)).toEqual([
      "could not read /var/log/web.err: tail: /var/log/web.err: No such file or directory",
    ]);
  });
});
