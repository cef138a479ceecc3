import { API_VERSION } from "@tend/core";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import provider from "./index.js";

describe("dinit provider", () => {
  it("declares what dinit can express", () => {
    expect(provider.apiVersion).toBe(API_VERSION);
    expect(provider.serves).toEqual({ inits: ["dinit"], types: ["service"] });
    expect(provider.capabilities).toEqual({
      service: { userServices: true, distroUnits: true, systemdTargets: false, displayManager: false, reloadSignal: true },
    });
  });

  it("matches its package.json manifest", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { tend: { provider: { apiVersion: number; inits: string[]; types: string[] } } };
    expect(manifest.tend.provider).toEqual({ apiVersion: provider.apiVersion, ...provider.serves });
  });
});
