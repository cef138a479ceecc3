import { timer, TimerSchema } from "@tend/core";
import { renderContext } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { renderArtifacts } from "./render-artifacts.js";
import { renderTimerUnits } from "./render-timer-units.js";

describe("renderTimerUnits: the seed's timers", () => {
  it("renders the backup user timer: a oneshot service and a timer at 02:30", async () => {
    const backup = TimerSchema.parse(timer("backup", { exec: "restic backup ~/Documents", schedule: "30 2 * * *", user: true }));
    const units = renderTimerUnits(backup);
    await expect(units.service).toMatchFileSnapshot("./__golden__/backup.user.service");
    await expect(units.timer).toMatchFileSnapshot("./__golden__/backup.user.timer");
    const paths = renderArtifacts(backup, renderContext({ init: "systemd", scope: "user" })).map((a) => a.path);
    expect(paths).toEqual(["/home/alice/.config/systemd/user/tend-backup.service", "/home/alice/.config/systemd/user/tend-backup.timer"]);
  });

  it("renders the weekly gc timer on Sunday, not systemd's Monday `weekly`", async () => {
    const gc = TimerSchema.parse(timer("gc", { exec: "/usr/local/bin/tend gc --older-than 14d", schedule: "@weekly" }));
    const units = renderTimerUnits(gc);
    expect(units.timer).toContain("\nOnCalendar=Sun *-*-* 00:00:00\n");
    await expect(units.service).toMatchFileSnapshot("./__golden__/gc.service");
    await expect(units.timer).toMatchFileSnapshot("./__golden__/gc.timer");
    const paths = renderArtifacts(gc, renderContext({ init: "systemd" })).map((a) => a.path);
    expect(paths).toEqual(["/etc/systemd/system/tend-gc.service", "/etc/systemd/system/tend-gc.timer"]);
  });

  it("gives the timer's service the env, and no [Install] (it is static)", () => {
    const units = renderTimerUnits(TimerSchema.parse(timer("t", { exec: "/bin/t", schedule: "*/10 * * * *", env: { A: "x y" } })));
    expect(units.service).toContain('\nEnvironment="A=x y"\n');
    expect(units.service).not.toContain("[Install]");
    expect(units.timer).toContain("\nOnCalendar=*-*-* *:00..50/10:00\nPersistent=true\nAccuracySec=1s\n\n[Install]\nWantedBy=timers.target\n");
  });
});
