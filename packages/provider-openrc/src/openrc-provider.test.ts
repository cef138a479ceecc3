import { readFileSync } from "node:fs";
import { API_VERSION } from "@tend/core";
import { renderContext } from "@tend/testkit";
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

  it("names /etc/init.d/tend-* as its own, so a script no state records is reported as an orphan", () => {
    expect(provider.managedFolders?.(renderContext({ init: "openrc" }))).toEqual([{ dir: "/etc/init.d", prefix: "tend-" }]);
  });

  it("carries out waves in batches", () => {
    expect(typeof provider.applyBatch).toBe("function");
    expect(typeof provider.removeBatch).toBe("function");
  });
});
