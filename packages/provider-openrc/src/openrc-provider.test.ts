import { readFileSync } from "node:fs";
import { API_VERSION } from "@tend/core";
import { describe, expect, it } from "vitest";
import provider from "./index.js";

describe("the OpenRC provider", () => {
  it("serves services on OpenRC and implements the contract its package.json names", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect(provider.apiVersion).toBe(API_VERSION);
    expect(manifest.tend.provider).toEqual({ apiVersion: API_VERSION, inits: ["openrc"], types: ["service"] });
    expect(provider.serves).toEqual({ inits: ["openrc"], types: ["service"] });
  });

  it("declares what OpenRC can express, so the core raises the seed's errors for the rest", () => {
    expect(provider.capabilities).toEqual({
      service: { userServices: false, distroUnits: true, systemdTargets: false, displayManager: false, reloadSignal: true },
    });
    expect("escapeHatch" in provider.capabilities.service).toBe(false);
  });
});
