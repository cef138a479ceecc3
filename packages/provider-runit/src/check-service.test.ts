import { SIGNALS, type Service } from "@tend/core";
import { describe, expect, it } from "vitest";
import { checkService } from "./check-service.js";
import { svSignalCommand } from "./sv-signal-command.js";

const web = (fields: Omit<Service, "type" | "name">): Service => ({ type: "service", name: "web", ...fields });

describe("checkService", () => {
  it("accepts what runit expresses", () => {
    expect(checkService(web({ exec: "/bin/web", user: true, restart: "on_failure", after: ["network", "db"], env: { A: "b" }, reloadSignal: "HUP" }))).toEqual([]);
    expect(checkService(web({}))).toEqual([]);
  });

  it("maps every signal but WINCH to an sv command", () => {
    const commands = Object.fromEntries(SIGNALS.map((signal) => [signal, svSignalCommand(signal)]));
    expect(commands).toEqual({ HUP: "hup", INT: "interrupt", QUIT: "quit", USR1: "1", USR2: "2", TERM: "term", WINCH: undefined, ALRM: "alarm", CONT: "cont" });
  });

  it("refuses a reloadSignal sv cannot send", () => {
    const [error] = checkService(web({ exec: "/bin/web", reloadSignal: "WINCH" }));
    expect(error?.code).toBe("TEND_INVALID_FIELD");
    expect(error?.message).toBe("service:web has an invalid `reloadSignal`: runit's sv cannot send WINCH; it sends HUP, INT, QUIT, USR1, USR2, TERM, ALRM, CONT");
  });

  it("refuses a reloadSignal that would reach a shell instead of the program", () => {
    const [error, ...more] = checkService(web({ exec: "/opt/demo/bin/demo x | /opt/demo/bin/demo x-tail", reloadSignal: "HUP" }));
    expect(more).toEqual([]);
    expect(error).toMatchObject({ code: "TEND_INVALID_FIELD", location: { resource: "service:web", field: "reloadSignal" } });
    expect(error?.message).toBe(
      "service:web has an invalid `reloadSignal`: `exec` is shell syntax that runs as `/bin/sh -c` without handing over to its last command (a pipeline, a background job or a compound command last), so sv would send HUP to that shell, which would end, and runsv would restart the service instead of reloading it",
    );
    for (const exec of ["/opt/web --a & wait", "while :; do /opt/web; done", "/opt/web > /var/log/web.log &", "while :; do /opt/myexec a; done"]) {
      expect(checkService(web({ exec, reloadSignal: "USR1" })).map((e) => e.location.field), exec).toEqual(["reloadSignal"]);
    }
  });

  it("accepts a reloadSignal that reaches the program: run directly, exec'd last, or trapped by the script itself", () => {
    for (const exec of [
      `/bin/sh -c 'trap "echo hup" HUP; while :; do sleep 1; done'`,
      `/opt/demo/bin/demo x "" "daemon off;"`,
      "cd /var/tmp && /opt/demo/bin/demo x",
      "cd /var/tmp && exec /opt/demo/bin/demo x",
      "exec /opt/web > /var/log/web.log 2>&1",
      `trap "echo reloaded" HUP; while :; do sleep 0.2; done`,
      "trap 'kill -HUP $child' SIGHUP; /opt/web & child=$!; wait",
    ]) {
      expect(checkService(web({ exec, reloadSignal: "HUP" })), exec).toEqual([]);
    }
    expect(checkService(web({ exec: "/opt/web | tee /var/log/web" }))).toEqual([]); // no reloadSignal, nothing to reach
  });

  it("refuses an after entry that cannot be a service name", () => {
    expect(checkService(web({ exec: "/bin/web", after: ["my db"] })).map((e) => e.message)).toEqual([
      "service:web has an invalid `after`: `my db` is neither `network` nor the name of another tend service",
    ]);
  });

  it("leaves *.target to the core (capabilities)", () => {
    expect(checkService(web({ exec: "/bin/web", after: ["graphical.target"] }))).toEqual([]);
  });

  it("refuses a user distro service", () => {
    expect(checkService(web({ user: true })).map((e) => e.location.field)).toEqual(["user"]);
  });

  it("refuses a distro service that should run while disabled", () => {
    expect(checkService(web({ desired: { state: "running", enabled: false } })).map((e) => e.location.field)).toEqual(["desired"]);
    expect(checkService(web({ desired: { state: "stopped", enabled: false } }))).toEqual([]);
  });
});
