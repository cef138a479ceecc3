import { describe, expect, it } from "vitest";
import { checkService } from "./check-service.js";

describe("checkService", () => {
  it("accepts what dinit can take", () => {
    expect(checkService({ type: "service", name: "web", exec: "/bin/web", after: ["network", "db", "graphical.target"] })).toEqual([]);
    expect(checkService({ type: "service", name: "agetty@tty1" })).toEqual([]);
  });

  it("refuses `@` in a service tend writes, which dinit reads as a service argument", () => {
    expect(checkService({ type: "service", name: "worker@1", exec: "/bin/worker" }).map((e) => e.message)).toEqual([
      "service:worker@1 has an invalid `name`: dinit reads `tend-worker@1` as the service `tend-worker` started with an argument, so a service tend writes cannot hold `@` on dinit",
    ]);
  });

  it("refuses after entries that cannot be a dependency name", () => {
    expect(checkService({ type: "service", name: "web", exec: "/bin/web", after: ["db server"] }).map((e) => e.message)).toEqual([
      "service:web has an invalid `after`: `db server` is neither `network` nor the name of a tend service, and dinit writes each entry as `depends-on = tend-<name>`",
    ]);
  });
});

describe("checkService reloadSignal", () => {
  it("refuses a reloadSignal that dinitctl signal would send to a shell in front of the program", () => {
    const found = checkService({ type: "service", name: "piped", exec: "/opt/demo/bin/demo a | /opt/demo/bin/demo b", reloadSignal: "HUP" });
    expect(found.map((e) => [e.message, e.location.field])).toEqual([
      [
        "service:piped has an invalid `reloadSignal`: `exec` is shell syntax that runs as `/bin/sh -c` without handing over to its last command (a pipeline, a background job or a compound command last), so `dinitctl signal HUP` would reach that shell, not the program; the shell would end and dinit would restart the service instead of reloading it",
        "reloadSignal",
      ],
    ]);
  });

  it("accepts it where the signal reaches the program: a simple command, a quoted sh -c, shell syntax that execs its last command, a script trapping it", () => {
    for (const exec of [
      '/opt/demo/bin/demo web "" "daemon off;"',
      `/bin/sh -c 'trap "echo hup" HUP; while :; do sleep 1; done'`,
      "cd /var/tmp && /opt/demo/bin/demo web",
      "trap 'reload' HUP; while :; do sleep 1; done",
    ]) {
      expect(checkService({ type: "service", name: "web", exec, reloadSignal: "HUP" }), exec).toEqual([]);
    }
  });
});
