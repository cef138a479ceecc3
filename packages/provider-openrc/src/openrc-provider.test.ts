import { describeConformance, renderContext } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import provider from "./index.js";

describeConformance({ provider, packageJson: new URL("../package.json", import.meta.url), init: "openrc" });

describe("the OpenRC provider", () => {
  it("declares what OpenRC can express, so the core raises the seed's errors for the rest", () => {
    expect(provider.capabilities).toEqual({
      service: { userServices: false, distroUnits: true, after: "services", displayManager: false, reloadSignal: true },
    });
  });

  it("names /etc/init.d/tend-* as its own, so a script no state records is reported as an orphan", () => {
    expect(provider.managedFolders?.(renderContext({ init: "openrc" }))).toEqual([{ dir: "/etc/init.d", prefix: "tend-" }]);
  });

  it("carries out waves in batches", () => {
    expect(typeof provider.applyBatch).toBe("function");
    expect(typeof provider.removeBatch).toBe("function");
  });
});
