import { ServiceSchema, TimerSchema } from "@tend/core";
import { describe, expect, it } from "vitest";
import provider from "./index.js";
import { hatchWarnings } from "./hatch-warnings.js";

const service = (fields: Record<string, unknown>) => ServiceSchema.parse({ type: "service", name: "web", exec: "/opt/web", ...fields });

describe("hatchWarnings: a launchd key that replaces what tend generated from another field", () => {
  it("names both the hatch key and the field it overrides", () => {
    expect(
      hatchWarnings(
        service({
          env: { A: "1" },
          restart: "always",
          launchd: { EnvironmentVariables: { B: "2" }, KeepAlive: false, ProgramArguments: ["/opt/other"] },
        }),
      ),
    ).toEqual([
      "`launchd.EnvironmentVariables` replaces the EnvironmentVariables tend generated from `env`; launchd gets only the hatch's value",
      "`launchd.KeepAlive` replaces the KeepAlive tend generated from `restart`; launchd gets only the hatch's value",
      "`launchd.ProgramArguments` replaces the ProgramArguments tend generated from `exec`; launchd gets only the hatch's value",
    ]);
  });

  it("says nothing of keys tend generates from no field, or from a field left unset", () => {
    expect(hatchWarnings(service({ launchd: { RunAtLoad: false, KeepAlive: { Crashed: true }, EnvironmentVariables: { B: "2" }, StartInterval: 300 } }))).toEqual([]);
  });

  it("points out Program, which runs another program than exec names", () => {
    expect(hatchWarnings(service({ launchd: { Program: "/opt/other" } }))).toEqual([expect.stringContaining("`launchd.Program` makes launchd execute that program")]);
  });

  it("is the provider's warnings hook, and timers have no hatch", () => {
    expect(provider.warnings).toBe(hatchWarnings);
    expect(hatchWarnings(TimerSchema.parse({ type: "timer", name: "t", exec: "/bin/t", schedule: "@daily" }))).toEqual([]);
  });
});
