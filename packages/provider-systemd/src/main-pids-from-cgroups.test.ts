import { RecordingRunner, readContext } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { mainPidsFromCgroups } from "./main-pids-from-cgroups.js";

describe("main pids from control groups", () => {
  it("takes a unit's one child of PID 1, and leaves a unit with none or two to systemctl", async () => {
    const runner = new RecordingRunner().on("/bin/sh -c", {
      stdout: ["a.service 120 1", "a.service 121 120", "b.service 130 1", "b.service 131 1", "c.service 140 77", "d.service 0 1", ""].join("\n"),
    });
    const ctx = await readContext({ init: "systemd", runner });
    const pids = await mainPidsFromCgroups(["a.service", "b.service", "c.service", "d.service", "e.service"], ctx);
    expect([...pids]).toEqual([["a.service", 120]]);
    expect(runner.calls[0]!.argv.slice(3)).toEqual(["sh", "a.service", "b.service", "c.service", "d.service", "e.service"]);
  });

  it("asks nothing for a user's services or none at all, and answers nothing when the shell fails", async () => {
    const runner = new RecordingRunner().on("/bin/sh -c", { exitCode: 2, stdout: "a.service 120 1\n" });
    const ctx = await readContext({ init: "systemd", runner });
    expect(await mainPidsFromCgroups([], ctx)).toEqual(new Map());
    expect(await mainPidsFromCgroups(["a.service"], { ...ctx, scope: { kind: "user", user: "alice", uid: 1000, gid: 1000, home: "/home/alice" } } as typeof ctx)).toEqual(new Map());
    expect(runner.calls).toHaveLength(0);
    expect(await mainPidsFromCgroups(["a.service"], ctx)).toEqual(new Map());
  });
});
