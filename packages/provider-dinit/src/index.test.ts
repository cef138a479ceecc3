import { API_VERSION, checkCapabilities, type Service } from "@tend/core";
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

  it("gives the seed's errors for what dinit cannot express, and none for what it can", () => {
    const check = (fields: Omit<Service, "type">) => checkCapabilities({ type: "service", ...fields }, provider, "dinit").map((e) => e.message);
    expect(check({ name: "web", exec: "/bin/web", systemd: { MemoryMax: "512M" } })).toEqual([
      "service:web sets `systemd` (MemoryMax), which only systemd supports, and this host uses dinit",
    ]);
    expect(check({ name: "sync", exec: "/bin/sync", launchd: { ProcessType: "Background" } })).toEqual([
      "service:sync sets `launchd` (ProcessType), which only launchd supports, and this host uses dinit",
    ]);
    expect(check({ name: "bar", exec: "waybar", user: true, after: ["graphical.target"] })).toEqual([
      "service:bar orders itself after `graphical.target`, a systemd target, and this host uses dinit",
    ]);
    expect(check({ name: "syncthing", exec: "syncthing serve --no-browser", user: true, restart: "always", after: ["network"], reloadSignal: "HUP" })).toEqual([]);
    expect(check({ name: "sshd" })).toEqual([]);
    expect(check({ name: "gdm", displayManager: true })).toHaveLength(1);
  });
});
