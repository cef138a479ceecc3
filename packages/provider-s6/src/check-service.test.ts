import { describe, expect, it } from "vitest";
import { SIGNALS, ServiceSchema, type Service } from "@tend/core";
import { checkService } from "./check-service.js";
import { SIGNAL_FLAGS } from "./signal-flags.js";

const service = (fields: Omit<Service, "type">) => ServiceSchema.parse({ type: "service", ...fields });

describe("checkService", () => {
  it("accepts network, targets (the core's error) and other services in after", () => {
    expect(checkService(service({ name: "web", exec: "/bin/web", after: ["network", "db", "graphical.target"] }))).toEqual([]);
  });

  it("refuses after entries that cannot be a dependencies.d file name", () => {
    const found = checkService(service({ name: "web", exec: "/bin/web", after: ["../x", "a b", "web"] }));
    expect(found.map((e) => e.message)).toEqual([
      "service:web has an invalid `after`: `../x` is not a service name (letters, digits and `_ . - @`)",
      "service:web has an invalid `after`: `a b` is not a service name (letters, digits and `_ . - @`)",
      "service:web has an invalid `after`: `web` is the service itself",
    ]);
  });

  it("accepts every reloadSignal tend knows: s6-svc can send each", () => {
    for (const signal of SIGNALS) {
      expect(checkService(service({ name: "web", exec: "/bin/web", reloadSignal: signal }))).toEqual([]);
    }
    expect(Object.keys(SIGNAL_FLAGS).sort()).toEqual([...SIGNALS].sort());
  });

  it("maps signals to s6-svc's options (s6-svc(8))", () => {
    expect(SIGNAL_FLAGS).toEqual({ HUP: "-h", INT: "-i", QUIT: "-q", USR1: "-1", USR2: "-2", TERM: "-t", WINCH: "-y", ALRM: "-a", CONT: "-c" });
  });

  it("refuses a reloadSignal that would reach a shell in front of the program (a pipeline), naming the field", () => {
    const found = checkService(service({ name: "piped", exec: "/opt/demo/bin/demo piped | /opt/demo/bin/demo piped-tail", reloadSignal: "HUP", reloadOn: ["file:conf"] }));
    expect(found.map((e) => [e.message, e.location.field])).toEqual([
      [
        "service:piped has an invalid `reloadSignal`: `exec` is shell syntax that runs as `/bin/sh -c` without handing over to its last command (a pipeline, a background job or a compound command last), so s6-svc would send HUP to that shell, which would end: s6-supervise would restart the service (or leave it down) instead of reloading it",
        "reloadSignal",
      ],
    ]);
  });

  it("accepts a reloadSignal that reaches the program: a simple command, shell syntax that execs its last command, a shell that traps it", () => {
    const forms = [
      `/opt/demo/bin/demo x "" "daemon off;"`,
      "cd /var/tmp && /opt/demo/bin/demo x",
      `/bin/sh -c 'echo "start $$" >> /var/tmp/x; trap "echo hup $$ >> /var/tmp/x" HUP; while :; do sleep 1; done'`,
    ];
    for (const exec of forms) expect(checkService(service({ name: "x", exec, reloadSignal: "HUP" })), exec).toEqual([]);
    const trapping = `trap 'echo hup' HUP; /opt/demo/bin/demo x | /opt/demo/bin/demo x-tail`; // the shell stays in front, but is the program: it traps HUP
    expect(checkService(service({ name: "x", exec: trapping, reloadSignal: "HUP" }))).toEqual([]);
    expect(checkService(service({ name: "x", exec: trapping, reloadSignal: "USR1" }))).toHaveLength(1);
  });
});
