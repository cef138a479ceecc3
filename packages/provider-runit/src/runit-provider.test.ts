import { readFileSync } from "node:fs";
import { API_VERSION } from "@tend/core";
import { describe, expect, it } from "vitest";
import provider from "./index.js";

describe("the runit provider", () => {
  it("speaks the contract and serves runit services", () => {
    expect(provider.apiVersion).toBe(API_VERSION);
    expect(provider.serves).toEqual({ inits: ["runit"], types: ["service"] });
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { tend: { provider: { apiVersion: number } } };
    expect(manifest.tend.provider.apiVersion).toBe(API_VERSION);
  });

  it("declares what runit can express", () => {
    expect(provider.capabilities).toEqual({
      service: { userServices: true, distroUnits: true, systemdTargets: false, displayManager: false, reloadSignal: true },
    });
    expect(provider.capabilities.service).not.toHaveProperty("escapeHatch");
  });

  it("waits long enough for a start behind an after check", () => {
    expect(provider.startTimeoutMs).toBe(10_000);
  });
});
