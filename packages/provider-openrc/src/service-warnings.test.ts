import type { Resource } from "@tend/core";
import { describe, expect, it } from "vitest";
import { serviceWarnings } from "./service-warnings.js";

const service = (exec: string | undefined, restart?: "always" | "on_failure" | "no"): Resource => ({
  type: "service",
  name: "web",
  ...(exec === undefined ? {} : { exec }),
  ...(restart ? { restart } : {}),
});

describe("serviceWarnings", () => {
  it("warns that supervise-daemon respawns only the shell of a supervised pipeline", () => {
    for (const restart of ["always", "on_failure"] as const) {
      expect(serviceWarnings(service("/opt/x | /opt/y", restart))).toEqual([
        "its exec keeps /bin/sh in front of the program (a pipeline, or a command after which the script goes on): if that shell alone dies, supervise-daemon starts the service again while the processes it started keep running; stop, restart and removal end them all",
      ]);
    }
  });

  it("has nothing to say where the program is the process, nothing respawns, or tend writes no script", () => {
    expect(serviceWarnings(service("cd /srv && /opt/x", "always"))).toEqual([]);
    expect(serviceWarnings(service('/opt/x -g "daemon off;"', "always"))).toEqual([]);
    expect(serviceWarnings(service("/opt/x | /opt/y", "no"))).toEqual([]);
    expect(serviceWarnings(service(undefined, "always"))).toEqual([]);
    expect(serviceWarnings({ type: "file", name: "f", path: "/etc/f", content: "" })).toEqual([]);
  });
});
