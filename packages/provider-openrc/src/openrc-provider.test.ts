import { describeConformance } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import provider from "./index.js";

describeConformance({ provider, packageJson: new URL("../package.json", import.meta.url), init: "openrc" });

describe("the OpenRC provider", () => {
  it("declares what OpenRC can express, so the core raises the seed's errors for the rest", () => {
    expect(provider.capabilities).toEqual({
      service: { userServices: false, distroUnits: true, after: "services", displayManager: false, reloadSignal: true },
    });
  });
});
