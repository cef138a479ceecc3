import { describe, expect, it } from "vitest";
import { serviceWarnings } from "./service-warnings.js";

describe("serviceWarnings", () => {
  it("warns that a pipeline's other programs outlive a shell that dies alone", () => {
    expect(serviceWarnings({ type: "service", name: "piped", exec: "/opt/demo/bin/demo a | /opt/demo/bin/demo b" })).toEqual([
      "its exec keeps /bin/sh in front of the program (a pipeline, or a command after which the script goes on): if that shell alone dies, dinit starts the service again while the processes it started keep running; stop, restart and removal end them all (dinit signals the service's whole process group)",
    ]);
  });

  it("says nothing where the program is the process dinit starts", () => {
    for (const exec of ['/opt/demo/bin/demo web "" "daemon off;"', "cd /var/tmp && /opt/demo/bin/demo web", "syncthing serve"]) {
      expect(serviceWarnings({ type: "service", name: "web", exec }), exec).toEqual([]);
    }
    expect(serviceWarnings({ type: "service", name: "sshd" })).toEqual([]);
  });
});
