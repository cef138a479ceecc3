import { service, ServiceSchema, timer, TimerSchema, validateSpec } from "@tend/core";
import { renderContext } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { checkResource } from "./check-resource.js";

const ctx = renderContext({ init: "systemd" });
const messages = (resource: Parameters<typeof checkResource>[0]) => checkResource(resource, ctx).map((e) => e.message);

describe("checkResource", () => {
  it("accepts the seed's examples", () => {
    expect(messages(ServiceSchema.parse(service("web", { exec: "/opt/web/bin/server --port 8080", systemd: { MemoryMax: "512M", unit: { StartLimitBurst: 3 } } })))).toEqual([]);
    expect(messages(ServiceSchema.parse(service("bar", { exec: "waybar", user: true, after: ["graphical-session.target"] })))).toEqual([]);
    expect(messages(ServiceSchema.parse(service("gdm", { displayManager: true })))).toEqual([]);
    expect(messages(TimerSchema.parse(timer("gc", { exec: "/usr/local/bin/tend gc", schedule: "@weekly" })))).toEqual([]);
  });

  it("fails schedules with the seed's texts, with the spec", () => {
    expect(() => validateSpec([timer("y", { exec: "/bin/y", schedule: "@yearly" })])).toThrow(
      "schedule `@yearly` is not supported, use @hourly, @daily, @weekly, @monthly or five cron fields",
    );
    expect(() => validateSpec([timer("b", { exec: "/bin/b", schedule: "0 0 1 * 1" })])).toThrow(
      "schedule `0 0 1 * 1` restricts both day-of-month and day-of-week; cron runs on either, and no init here can express that",
    );
  });

  it("refuses what systemd cannot load or would misread", () => {
    expect(messages(ServiceSchema.parse(service("tmpl@", { exec: "/bin/x" })))).toEqual([
      "service:tmpl@ has an invalid `name`: a name ending in `@` makes tend-tmpl@.service a template unit, which cannot be started",
    ]);
    expect(() => ServiceSchema.parse(service("rel", { exec: "bin/server --port 1" }))).toThrow("`bin/server` is a relative path");
    expect(messages(ServiceSchema.parse(service("t", { exec: "/bin/x", after: ["my target.target"] })))).toEqual([
      "service:t has an invalid `after`: `my target.target` is not a systemd unit name",
    ]);
    expect(messages(ServiceSchema.parse(service("h", { exec: "/bin/x", systemd: { ExecStartPre: "/bin/echo C:\\" } })))).toEqual([
      "service:h has an invalid `systemd`: `ExecStartPre` ends in a backslash, which would join the next line of the unit to it",
    ]);
    expect(messages(ServiceSchema.parse(service("dm", { user: true, displayManager: true })))).toEqual([
      "service:dm has an invalid `displayManager`: a display manager is a system service: it sets the host's default target",
    ]);
    expect(messages(ServiceSchema.parse(service("x".repeat(250), { exec: "/bin/x" })))[0]).toContain("longer than the 255 characters");
  });

  it("refuses a reloadSignal that systemd would deliver to a shell in front of the program", () => {
    const reloading = (exec: string, systemd?: Record<string, string>) =>
      messages(ServiceSchema.parse(service("r", { exec, reloadSignal: "HUP", reloadOn: ["file:conf"], ...(systemd ? { systemd } : {}) })));
    expect(reloading("/opt/demo/bin/demo r | /opt/demo/bin/demo r-tail")).toEqual([
      "service:r sets reloadSignal = HUP, but its exec runs under /bin/sh, which stays the main process (a pipeline, or a last command that cannot be exec'd): systemd would signal the shell, and the service would end instead of reloading",
    ]);
    const [error] = checkResource(ServiceSchema.parse(service("r", { exec: "/bin/a | /bin/b", reloadSignal: "HUP" })), ctx);
    expect([error?.code, error?.location.field]).toEqual(["TEND_CANNOT_RELOAD", "reloadSignal"]);
    // the program is the main process: a simple command, shell syntax whose last command is exec'd
    expect(reloading("/opt/demo/bin/demo r \"\" \"daemon off;\"")).toEqual([]);
    expect(reloading("cd /var/tmp && /opt/demo/bin/demo r")).toEqual([]);
    expect(reloading("cd /var/tmp; exec /opt/demo/bin/demo r")).toEqual([]);
    expect(reloading(`/bin/sh -c 'trap "echo hup" HUP; while :; do sleep 1; done'`)).toEqual([]);
    // a script that traps the signal itself handles it; a reload of one's own is the hatch's business
    expect(reloading(`trap 'kill -HUP $child' HUP; /bin/a | /bin/b & child=$!; wait`)).toEqual([]);
    expect(reloading("/bin/a | /bin/b", { ExecReload: "/bin/true" })).toEqual([]);
    expect(messages(ServiceSchema.parse(service("r", { exec: "/bin/a | /bin/b" })))).toEqual([]);
  });
});
