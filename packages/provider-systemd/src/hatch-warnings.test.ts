import { service, ServiceSchema } from "@tend/core";
import { renderContext } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { hatchWarnings } from "./hatch-warnings.js";

const ctx = renderContext({ init: "systemd" });
const warn = (fields: Parameters<typeof service>[1]) => hatchWarnings(ServiceSchema.parse(service("web", fields)), ctx);

describe("hatchWarnings", () => {
  it("names the hatch directive and the field whose lines it replaces", () => {
    expect(
      warn({
        exec: "/opt/web/bin/server",
        description: "the web server",
        restart: "always",
        after: ["network", "db"],
        env: { RUST_LOG: "info", PORT: "8080" },
        reloadSignal: "HUP",
        systemd: {
          Environment: "ONLY=this",
          ExecStart: "/opt/web/bin/other",
          Restart: "on-failure",
          ExecReload: "/bin/true",
          unit: { Description: "hatch", After: "x.service", Wants: "x.service" },
        },
      }),
    ).toEqual([
      "`systemd.Environment` replaces the Environment= lines tend generated from `env`; systemd gets only the hatch's value",
      "`systemd.ExecStart` replaces the ExecStart= line tend generated from `exec`; systemd gets only the hatch's value",
      "`systemd.Restart` replaces the Restart= line tend generated from `restart`; systemd gets only the hatch's value",
      "`systemd.ExecReload` replaces the ExecReload= line tend generated from `reloadSignal`; systemd gets only the hatch's value",
      "`systemd.unit.Description` replaces the Description= line tend generated from `description`; systemd gets only the hatch's value",
      "`systemd.unit.After` replaces the After= line tend generated from `after`; systemd gets only the hatch's value",
      "`systemd.unit.Wants` replaces the Wants= line tend generated from `after`; systemd gets only the hatch's value",
    ]);
    expect(warn({ exec: "/bin/web", env: { A: "1" }, systemd: { service: { Environment: ["B=2"] } } })).toEqual([
      "`systemd.service.Environment` replaces the Environment= line tend generated from `env`; systemd gets only the hatch's value",
    ]);
  });

  it("says nothing about directives no field generated: the seed's own examples", () => {
    expect(warn({ exec: "/opt/web/bin/server --port 8080", restart: "on_failure", env: { RUST_LOG: "info" }, systemd: { MemoryMax: "512M", unit: { StartLimitBurst: 3 } } })).toEqual([]);
    expect(warn({ exec: "waybar", user: true, after: ["graphical-session.target"], systemd: { install: { WantedBy: "graphical-session.target" } } })).toEqual([]);
    // fields left unset generate nothing to replace: Description= from the name, no Restart=, no Environment=
    expect(warn({ exec: "/bin/web", systemd: { Restart: "always", Environment: "A=1", unit: { Description: "x", Wants: "y.service" } } })).toEqual([]);
    // a user unit gets no Wants= from `network`
    expect(warn({ exec: "/bin/web", user: true, after: ["network"], systemd: { unit: { Wants: "y.service" } } })).toEqual([]);
    expect(warn({ exec: "/bin/web", env: { A: "1" } })).toEqual([]);
  });
});
