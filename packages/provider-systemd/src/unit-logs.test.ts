import { readFileSync } from "node:fs";
import { service, ServiceSchema, timer, TimerSchema } from "@tend/core";
import { readContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { unitLogs } from "./unit-logs.js";

const journal = readFileSync(new URL("./__fixtures__/journal-crash.txt", import.meta.url), "utf8");

describe("unitLogs", () => {
  it("shows the last 20 journal lines of a system unit", async () => {
    const runner = new RecordingRunner().on("journalctl", { stdout: journal });
    const lines = await unitLogs(ServiceSchema.parse(service("crash", { exec: "/bin/false" })), await readContext({ init: "systemd", runner }));
    expect(runner.lines).toEqual(["journalctl -q --no-pager -n 20 -u tend-crash.service"]);
    expect(lines).toHaveLength(20);
    expect(lines.at(-1)).toBe("Dec 02 16:22:15 6792aa1b7d9d systemd[1]: tend-crash.service: Failed with result 'exit-code'.");
  });

  it("reads a timer's service, and a user unit by field and uid", async () => {
    const runner = new RecordingRunner();
    await unitLogs(TimerSchema.parse(timer("backup", { exec: "/bin/true", schedule: "@daily", user: true })), await readContext({ init: "systemd", scope: "user", runner }));
    expect(runner.lines).toEqual([
      "journalctl -q --no-pager -n 20 _SYSTEMD_USER_UNIT=tend-backup.service _UID=1000 + USER_UNIT=tend-backup.service _UID=1000",
    ]);
  });
});
