import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { checkCapabilities, type Service } from "@tend/core";
import { describeConformance, renderContext } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import provider from "./index.js";

describeConformance({
  provider,
  packageJson: new URL("../package.json", import.meta.url),
  init: "dinit",
  async prepareRoot(root) {
    await mkdir(join(root, "etc/dinit.d/boot.d"), { recursive: true });
    await writeFile(join(root, "etc/dinit.d/boot"), "type = internal\nwaits-for.d = /etc/dinit.d/boot.d\n");
    await writeFile(join(root, "etc/dinit.d/network"), "type = internal\n");
  },
});

describe("dinit provider", () => {
  it("declares what dinit can express", () => {
    expect(provider.capabilities).toEqual({
      // `after` is `depends-on`, and `dinitctl restart --force` restarts the dependents too.
      service: { userServices: true, distroUnits: true, after: "services", displayManager: false, reloadSignal: true, dependentsRestart: "always" },
    });
  });

  it("declares its folder of descriptions, so lost-state orphans there are reported", () => {
    expect(provider.managedFolders?.(renderContext({ init: "dinit" }))).toEqual([{ dir: "/etc/dinit.d", prefix: "tend-" }]);
    expect(provider.managedFolders?.(renderContext({ init: "dinit", scope: "user" }))).toEqual([{ dir: "/home/alice/.config/dinit.d", prefix: "tend-" }]);
  });

  it("points out in plan a pipeline whose shell dinit would restart alone", () => {
    const ctx = renderContext({ init: "dinit" });
    expect(provider.warnings?.({ type: "service", name: "piped", exec: "/bin/a | /bin/b" }, ctx)).toHaveLength(1);
    expect(provider.warnings?.({ type: "service", name: "web", exec: "/bin/web" }, ctx)).toEqual([]);
  });

  it("gives the seed's errors for what dinit cannot express, and none for what it can", () => {
    const check = (fields: Omit<Service, "type">) => checkCapabilities({ type: "service", ...fields }, provider, { init: "dinit", packageName: "@tend/provider-dinit", own: true }).map((e) => e.message);
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
