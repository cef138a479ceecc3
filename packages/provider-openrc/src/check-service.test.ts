import type { Resource } from "@tend/core";
import { describe, expect, it } from "vitest";
import { checkService } from "./check-service.js";

const web = (fields: Partial<Extract<Resource, { type: "service" }>>): Resource => ({ type: "service", name: "web", exec: "/opt/web/bin/server", ...fields });

describe("checkService", () => {
  it("accepts ordinary env names and after entries", () => {
    expect(checkService(web({ env: { RUST_LOG: "info", PATH: "/usr/bin:/bin", _JAVA_OPTIONS: "-Xmx1g" }, after: ["network", "db", "db.v2@x"] }))).toEqual([]);
  });

  it("refuses env names openrc-run reads from the script", () => {
    const problems = checkService(web({ env: { command: "x", pidfile: "y", IFS: ":", RC_SVCNAME: "z", rc_need: "n", tend_exec: "t", description_reload: "d" } }));
    expect(problems.map((p) => p.message.slice(0, p.message.indexOf("`:") + 1))).toEqual(Array(7).fill("service:web has an invalid `env`"));
    expect(problems[0]!.message).toContain("`command` is a variable openrc-run reads from the service script");
    expect(problems[0]!.location).toMatchObject({ resource: "service:web", field: "env" });
  });

  it("refuses after entries that are not service names, which would run in depend()", () => {
    const problems = checkService(web({ after: ["$(reboot)", "a b"] }));
    expect(problems.map((p) => p.message)).toEqual([
      'service:web has an invalid `after`: `$(reboot)` is neither "network" nor the name of a service',
      'service:web has an invalid `after`: `a b` is neither "network" nor the name of a service',
    ]);
  });

  it("leaves systemd targets to the core, which has the seed's text for them", () => {
    expect(checkService(web({ after: ["graphical.target"] }))).toEqual([]);
  });

  it("refuses reloadSignal when the signal would reach a shell in front of the program, naming the field", () => {
    const [problem, ...rest] = checkService(web({ exec: "/opt/demo/bin/demo p | /opt/demo/bin/demo p-tail", reloadSignal: "HUP" }));
    expect(rest).toEqual([]);
    expect(problem!.code).toBe("TEND_OPENRC_RELOAD_SHELL");
    expect(problem!.message).toBe(
      'service:web sets reloadSignal = "HUP", but its exec keeps /bin/sh in front of the program, so OpenRC would send SIGHUP to the shell, which it ends, and the reload would become a restart',
    );
    expect(problem!.location).toMatchObject({ resource: "service:web", field: "reloadSignal" });
    expect(checkService(web({ exec: "/opt/x & wait", reloadSignal: "USR1" }))).toHaveLength(1);
  });

  it("accepts reloadSignal where the program gets the signal: a simple command, an exec'd last command, a script that traps it itself", () => {
    for (const exec of [
      '/opt/demo/bin/demo q "" "daemon off;"',
      "cd /var/tmp && /opt/demo/bin/demo x",
      "cd /var/tmp && exec /opt/demo/bin/demo x",
      `/bin/sh -c 'trap "echo hup" HUP; while :; do sleep 1; done'`,
      "trap 'echo hup' HUP; while :; do sleep 1; done",
    ]) {
      expect(checkService(web({ exec, reloadSignal: "HUP" }))).toEqual([]);
    }
    expect(checkService(web({ exec: "/opt/x | /opt/y" }))).toEqual([]);
  });

  it("has nothing to say about other resources", () => {
    expect(checkService({ type: "timer", name: "t", exec: "x", schedule: "@daily" })).toEqual([]);
  });
});
