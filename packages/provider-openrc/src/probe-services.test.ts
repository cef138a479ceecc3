import type { Service } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { writeHostTree, type HostTree } from "@tend/testkit";
import { probeServices } from "./probe-services.js";

const supervised: Service = { type: "service", name: "web", exec: "/opt/web/bin/server", restart: "always" };
const background: Service = { type: "service", name: "bg", exec: "/opt/bg/bin/bg" };
const distro: Service = { type: "service", name: "sshd", desired: { state: "running", enabled: true } };

async function probe(status: string, tree: HostTree, resources: Service[] = [supervised]) {
  const runner = new RecordingRunner().on("rc-status -C -s", { stdout: status });
  const ctx = await applyContext({ init: "openrc", runner });
  await writeHostTree(ctx.rootDir, tree);
  const probes = await probeServices(resources, ctx);
  return { probes, lines: runner.lines };
}

describe("probeServices", () => {
  it("is up with supervise-daemon's child pid and respawn count as identity", async () => {
    const { probes, lines } = await probe(" tend-web   [  started 00:00:03 (0) ]\n", {
      "/run/openrc/options/tend-web/child_pid": "321",
      "/proc/321": { dir: true },
    });
    expect(lines).toEqual(["rc-status -C -s"]);
    expect(probes.get("service:web")).toEqual({ up: true, identity: "pid 321, 0 respawns", detail: "tend-web started, pid 321, 0 respawns" });
  });

  it("changes identity when supervise-daemon respawned the program", async () => {
    const before = await probe(" tend-web   [  started 00:00:03 (0) ]\n", { "/run/openrc/options/tend-web/child_pid": "321", "/proc/321": { dir: true } });
    const after = await probe(" tend-web   [  started 00:00:01 (1) ]\n", { "/run/openrc/options/tend-web/child_pid": "400", "/proc/400": { dir: true } });
    expect(after.probes.get("service:web")!.up).toBe(true);
    expect(after.probes.get("service:web")!.identity).not.toBe(before.probes.get("service:web")!.identity);
  });

  it("is not up while the child is dead or not spawned yet", async () => {
    const dead = await probe(" tend-web   [  started 00:00:03 (0) ]\n", { "/run/openrc/options/tend-web/child_pid": "321" });
    expect(dead.probes.get("service:web")).toMatchObject({ up: false, detail: "tend-web started, pid 321 (gone), 0 respawns" });
    const early = await probe(" tend-web   [  started 00:00:00 (0) ]\n", {});
    expect(early.probes.get("service:web")).toEqual({ up: false, detail: "tend-web started, 0 respawns" });
  });

  it("is not up when supervise-daemon gave up or OpenRC says stopped", async () => {
    expect((await probe(" tend-web      [ failed ]\n", {})).probes.get("service:web")).toEqual({ up: false, detail: "tend-web failed" });
    expect((await probe("", {})).probes.get("service:web")).toEqual({ up: false, detail: "tend-web stopped" });
  });

  it("reads a background daemon's pidfile, which Debian's OpenRC never checks", async () => {
    const alive = await probe(" tend-bg   [  started  ]\n", { "/run/tend-bg.pid": "77\n", "/proc/77": { dir: true } }, [background]);
    expect(alive.probes.get("service:bg")).toEqual({ up: true, identity: "pid 77", detail: "tend-bg started, pid 77" });
    const dead = await probe(" tend-bg   [  started  ]\n", { "/run/tend-bg.pid": "77\n" }, [background]);
    expect(dead.probes.get("service:bg")).toMatchObject({ up: false, detail: "tend-bg started, pid 77 (gone)" });
  });

  it("takes a distro service's word for it when it has no pid", async () => {
    const { probes } = await probe(" sshd   [  started  ]\n", {}, [distro]);
    expect(probes.get("service:sshd")).toEqual({ up: true, detail: "sshd started" });
  });
});
