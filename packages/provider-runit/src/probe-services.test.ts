import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Service } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { probeServices } from "./probe-services.js";
import { readLogs } from "./read-logs.js";

const service = (name: string, fields: Omit<Service, "type" | "name"> = {}): Service => ({ type: "service", name, ...fields });

describe("probeServices", () => {
  it("one batched sv status: up is run without want down, identity the pid", async () => {
    const runner = new RecordingRunner().on("sv status", {
      stdout: [
        "run: /etc/sv/tend-web: (pid 1140) 3s; run: log: (pid 1135) 3s",
        "down: /etc/sv/tend-crash: 0s, normally up, want up; run: log: (pid 1127) 3s",
        "finish: /etc/sv/tend-ending: (pid 1354) 1s; run: log: (pid 1132) 3s",
        "",
      ].join("\n"),
    });
    const ctx = await applyContext({ init: "runit", runner });
    const probes = await probeServices([service("web", { exec: "/w" }), service("crash", { exec: "/c" }), service("ending", { exec: "/e" })], ctx);
    expect(runner.lines).toEqual(["sv status /etc/sv/tend-web /etc/sv/tend-crash /etc/sv/tend-ending"]);
    expect(Object.fromEntries(probes)).toEqual({
      "service:web": { up: true, identity: "1140", detail: "run: /etc/sv/tend-web: (pid 1140) 3s; run: log: (pid 1135) 3s" },
      "service:crash": { up: false, detail: "down: /etc/sv/tend-crash: 0s, normally up, want up; run: log: (pid 1127) 3s" },
      "service:ending": { up: false, identity: "1354", detail: "finish: /etc/sv/tend-ending: (pid 1354) 1s; run: log: (pid 1132) 3s" },
    });
  });

  it("honours ./check: up only when sv check passes", async () => {
    const runner = new RecordingRunner()
      .on("sv status", { stdout: "run: /etc/sv/tend-checked: (pid 1147) 3s\nrun: /etc/sv/tend-unready: (pid 1142) 3s\nrun: /etc/sv/tend-plain: (pid 1) 3s\n" })
      .on("sv -w 1 check", { exitCode: 1, stdout: "ok: run: /etc/sv/tend-checked: (pid 1147) 3s\ntimeout: run: /etc/sv/tend-unready: (pid 1142) 4s\n" });
    const ctx = await applyContext({ init: "runit", runner });
    for (const name of ["tend-checked", "tend-unready"]) {
      await mkdir(join(ctx.rootDir, "etc/sv", name), { recursive: true });
      await writeFile(join(ctx.rootDir, "etc/sv", name, "check"), "#!/bin/sh\n");
    }
    const probes = await probeServices([service("checked", { exec: "/c" }), service("unready", { exec: "/u" }), service("plain", { exec: "/p" })], ctx);
    expect(runner.lines).toEqual(["sv status /etc/sv/tend-checked /etc/sv/tend-unready /etc/sv/tend-plain", "sv -w 1 check /etc/sv/tend-checked /etc/sv/tend-unready"]);
    expect([...probes.values()].map((p) => p.up)).toEqual([true, false, true]);
    expect(probes.get("service:unready")?.detail).toBe("run: /etc/sv/tend-unready: (pid 1142) 3s (./check does not pass)");
  });
});

describe("readLogs", () => {
  it("the last lines svlogd kept, then sv's status line", async () => {
    const runner = new RecordingRunner().on("sv status /etc/sv/tend-web", { stdout: "down: /etc/sv/tend-web: 0s, normally up, want up; run: log: (pid 5) 9s\n" });
    const ctx = await applyContext({ init: "runit", runner });
    await mkdir(join(ctx.rootDir, "var/log/tend-web"), { recursive: true });
    const lines = Array.from({ length: 30 }, (_, i) => `2026-12-02_16:16:${String(i).padStart(2, "0")}.00000 line ${i}`);
    await writeFile(join(ctx.rootDir, "var/log/tend-web/current"), `${lines.join("\n")}\n`);
    const logs = await readLogs(service("web", { exec: "/w" }), ctx);
    expect(logs).toEqual([...lines.slice(-20), "down: /etc/sv/tend-web: 0s, normally up, want up; run: log: (pid 5) 9s"]);
  });

  it("a distro service: the status line only", async () => {
    const runner = new RecordingRunner().on("sv status /etc/sv/sshd", { stdout: "run: /etc/sv/sshd: (pid 7) 1s\n" });
    const ctx = await applyContext({ init: "runit", runner });
    expect(await readLogs(service("sshd"), ctx)).toEqual(["run: /etc/sv/sshd: (pid 7) 1s"]);
  });
});
