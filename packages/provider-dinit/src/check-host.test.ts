import type { Observation, Service } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { BOOT, writeHostTree, type HostTree } from "./__fixtures__/host-tree.js";
import { checkHost } from "./check-host.js";
import { observeServices } from "./observe-services.js";

const service = (fields: Omit<Service, "type">): Service => ({ type: "service", ...fields });

async function plan(services: Service[], tree: HostTree, options: { scope?: "user"; list?: { exitCode: number; stderr: string } } = {}) {
  const runner = new RecordingRunner().on(/list$/, options.list ?? { stdout: "[[+]     ] boot\n" });
  const ctx = await applyContext({ init: "dinit", runner, ...(options.scope ? { scope: options.scope } : {}) });
  await writeHostTree(ctx.rootDir, tree);
  const observations: Map<string, Observation> = await observeServices(services, ctx);
  const found = await checkHost(services, observations, ctx);
  return found.map((error) => ({ code: error.code, message: error.message, hint: error.hint }));
}

describe("checkHost", () => {
  it("passes a host with boot.d and a network service", async () => {
    const found = await plan([service({ name: "web", exec: "/bin/web", after: ["network"] })], {
      ...BOOT,
      "/lib/dinit.d/network": "type = internal\n",
    });
    expect(found).toEqual([]);
  });

  it("fails a system service after network on a host with no dinit service named network", async () => {
    const found = await plan([service({ name: "web", exec: "/bin/web", after: ["network"] })], {
      ...BOOT,
      "/usr/lib/dinit.d/network.target": "type = internal\n",
    });
    expect(found).toEqual([
      {
        code: "TEND_DINIT_NO_NETWORK",
        message:
          "service:web orders itself after `network`, which dinit reads as `depends-on = network`, but this host has no dinit service named `network` (looked in /etc/dinit.d, /run/dinit.d, /usr/local/lib/dinit.d, /lib/dinit.d, /usr/lib/dinit.d); dinit would refuse to load tend-web",
        hint: "Drop `network` from `after` on this host, or install the service that provides it (some distros name it otherwise, e.g. Chimera's `network.target`)",
      },
    ]);
  });

  it("ignores network for a user service, which dinit --user has no dependency for", async () => {
    const found = await plan([service({ name: "sync", exec: "/bin/sync", user: true, after: ["network"] })], {
      "/home/alice/.config/dinit.d/boot": "type = internal\nwaits-for.d = boot.d\n",
      "/home/alice/.config/dinit.d/boot.d": { dir: true },
    }, { scope: "user" });
    expect(found).toEqual([]);
  });

  it("fails an after entry that names no tend service in the spec", async () => {
    const found = await plan(
      [service({ name: "api", exec: "/bin/api", after: ["db", "cache"] }), service({ name: "cache", exec: "/bin/cache" })],
      BOOT,
    );
    expect(found.map((f) => f.code)).toEqual(["TEND_DINIT_MISSING_DEPENDENCY"]);
    expect(found[0]!.message).toBe(
      "service:api orders itself after `db`, which dinit reads as `depends-on = tend-db`, but this spec declares no service `db` with an exec; dinit would refuse to load tend-api",
    );
  });

  it("fails enabling when boot has no waits-for.d", async () => {
    const found = await plan([service({ name: "web", exec: "/bin/web" })], { "/etc/dinit.d/boot": "type = internal\n" });
    expect(found).toEqual([
      {
        code: "TEND_DINIT_NO_WAITS_FOR_D",
        message:
          "service:web is to be enabled, but dinit's `boot` service (/etc/dinit.d/boot) has no `waits-for.d` folder, so `dinitctl enable tend-web` has nowhere to record it",
        hint: "Add `waits-for.d = boot.d` to /etc/dinit.d/boot and create that folder, or set `desired.enabled: false`",
      },
    ]);
  });

  it("fails enabling when the waits-for.d folder is missing, or there is no boot service", async () => {
    const missingDir = await plan([service({ name: "web", exec: "/bin/web" })], { "/etc/dinit.d/boot": "waits-for.d = /etc/dinit.d/boot.d\n" });
    expect(missingDir.map((f) => f.message)).toEqual([
      "service:web is to be enabled, but the `waits-for.d` folder /etc/dinit.d/boot.d named in /etc/dinit.d/boot does not exist, so `dinitctl enable tend-web` cannot record it",
    ]);
    const noBoot = await plan([service({ name: "web", exec: "/bin/web" })], {});
    expect(noBoot.map((f) => f.code)).toEqual(["TEND_DINIT_NO_BOOT_SERVICE"]);
  });

  it("does not need waits-for.d for a service that stays disabled or is already enabled", async () => {
    const tree = { "/etc/dinit.d/boot": "type = internal\ndepends-ms = tty1\n", "/etc/dinit.d/tty1": "type = process\n" };
    expect(await plan([service({ name: "web", exec: "/bin/web", desired: { state: "running", enabled: false } })], tree)).toEqual([]);
    expect(await plan([service({ name: "tty1" })], tree)).toEqual([]);
  });

  it("fails a distro service whose description does not exist, unless something it requires may provide it", async () => {
    expect(await plan([service({ name: "sshd" })], BOOT)).toEqual([
      {
        code: "TEND_DISTRO_UNIT_MISSING",
        message: "service:sshd has no exec, but /etc/dinit.d/sshd does not exist; install the package that ships it",
        hint: "Add the package that ships it, and list it in `requires`",
      },
    ]);
    expect(await plan([service({ name: "sshd", requires: ["file:sshd-service"] })], BOOT)).toEqual([]);
    expect(await plan([service({ name: "agetty@tty1" })], { ...BOOT, "/lib/dinit.d/agetty": "type = process\n" })).toEqual([]);
  });

  it("fails when dinit cannot be reached", async () => {
    const found = await plan([service({ name: "sync", exec: "/bin/sync", user: true })], {
      "/home/alice/.config/dinit.d/boot": "type = internal\nwaits-for.d = boot.d\n",
      "/home/alice/.config/dinit.d/boot.d": { dir: true },
    }, { scope: "user", list: { exitCode: 1, stderr: "dinitctl: connecting to socket: /home/alice/.dinitctl: No such file or directory\n" } });
    expect(found).toEqual([
      {
        code: "TEND_DINIT_UNREACHABLE",
        message: "cannot reach alice's dinit (dinit --user): dinitctl: connecting to socket: /home/alice/.dinitctl: No such file or directory",
        hint: "Start the user's service manager (`dinit --user`, usually at login), then plan again",
      },
    ]);
  });
});
