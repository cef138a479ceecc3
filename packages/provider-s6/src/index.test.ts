import { mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ServiceSchema, type ProviderDefinition } from "@tend/core";
import { RecordingRunner, describeConformance, renderContext } from "@tend/testkit";
import s6 from "./index.js";

/** As the core sees it. */
const provider: ProviderDefinition = s6;

describeConformance({
  provider: s6,
  packageJson: new URL("../package.json", import.meta.url),
  init: "s6",
  // The image-root apply runs s6-rc-compile, which this machine has not: this one makes the
  // database folder as the real one does. Observing the root afterwards needs no s6-rc tool (it
  // reads tend's note beside the database); integration/suites/s6rc.test.ts does it for real.
  offlineRunner: () =>
    new RecordingRunner().on("s6-rc-compile", (command) => {
      mkdirSync(command.argv[1]!);
      return {};
    }),
});

describe("@tend/provider-s6", () => {
  it("declares what s6 cannot express, so the core raises the seed's errors", () => {
    // service:web sets user = True, but s6 has no user services; service:gdm has no exec, and
    // enabling a unit the system ships is not supported on s6; *.target; no escape hatch.
    expect(provider.capabilities.service).toEqual({
      userServices: false,
      distroUnits: false,
      after: "services",
      displayManager: false,
      reloadSignal: true,
      // s6-rc-update restarts what depends on a service it restarts for a changed definition.
      dependentsRestart: "definition",
    });
    expect(provider.capabilities.service).not.toHaveProperty("escapeHatch");
  });

  it("renders through the provider entry point", () => {
    const web = ServiceSchema.parse({ type: "service", name: "web", exec: "/opt/web/bin/server" });
    const artifacts = provider.render(web, renderContext({ init: "s6" }));
    expect(artifacts.map((a) => a.path)).toEqual([
      "/etc/s6/sv/tend-web",
      "/etc/s6/sv/tend-web/type",
      "/etc/s6/sv/tend-web/run",
      "/etc/s6/sv/tend-web/finish",
      "/etc/s6/sv/tend/contents.d/tend-web",
    ]);
    expect(provider.check?.(ServiceSchema.parse({ ...web, after: ["a/b"] }), renderContext({ init: "s6" }))).toHaveLength(1);
  });
});
