import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyPlan, ProviderRegistry, Session, validateSpec, type Resource } from "@tend/core";
import { describe, expect, it } from "vitest";
import { FakeSystemctl } from "./__testing__/fake-systemctl.js";
import { systemdProvider } from "./systemd-provider.js";

const services = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ type: "service", name: `s${i}`, exec: `/opt/demo/bin/demo s${i}`, restart: "always", verify: { settle: 0 } }));

/** One apply through the core, on a temp root standing for `/`, against a fake systemd. */
async function apply(resources: unknown[], fake: FakeSystemctl, root?: string) {
  const dir = root ?? (await mkdtemp(join(tmpdir(), "tend-systemd-")));
  const registry = new ProviderRegistry(dir, dir);
  registry.register(systemdProvider);
  const session = Session.fromParts({
    host: { facts: { name: "testhost", init: "systemd", os: "linux", arch: "x64", user: "root", home: "/root" }, scope: { kind: "system" } },
    spec: { file: join(dir, "tend.yaml"), resources: validateSpec(resources) as Resource[], providers: [] },
    registry,
    root: dir,
    offline: false,
    runner: fake.runner,
  });
  fake.runner.clear();
  const { plan, state, assigned } = await session.buildPlan();
  const report = await applyPlan(session, plan, state, assigned);
  expect(report.failures).toEqual([]);
  return { root: dir, lines: fake.runner.lines.map((line) => line.replace(/ -- .*/, " -- …").replace(/ sh( tend-\S+)+$/, " sh …")), argv: fake.runner.lines };
}

describe("batching: the number of systemctl runs does not grow with the number of services", () => {
  it("fresh apply, no-op plan and removal cost the same commands for 12 services as for 60", async () => {
    const runs = [];
    for (const n of [12, 60]) {
      const fake = new FakeSystemctl();
      const fresh = await apply(services(n), fake);
      const again = await apply(services(n), fake, fresh.root);
      const removal = await apply([], fake, fresh.root);
      runs.push({ n, fresh, again, removal, fake });
    }
    const [twelve, sixty] = runs;
    expect(twelve!.fresh.lines).toEqual([
      expect.stringMatching(/^\/bin\/sh -c [\s\S]*cgroup\.procs[\s\S]* sh …$/), // observe: the groups, read while the units are listed
      "systemctl list-unit-files --output=json -- …",
      "systemctl list-units --all --output=json -- …",
      "systemctl daemon-reload",
      "systemctl enable --now -- …", // one for the whole wave
      "systemctl list-units --all --output=json -- …", // verify: every unit's state (settle 0: no second reading)
      expect.stringMatching(/^\/bin\/sh -c [\s\S]*cgroup\.procs/), // the running services' main pids from their groups
      "systemctl show -p Id,LoadState,ActiveState,SubState,InvocationID,NRestarts,MainPID,Result -- …", // this fake host has no groups: show answers
      "systemctl list-unit-files --output=json -- …", // the state the spec asked for (no main pids: only a plan uses them)
      "systemctl list-units --all --output=json -- …",
    ]);
    expect(sixty!.fresh.lines).toEqual(twelve!.fresh.lines);
    expect(sixty!.fresh.argv[4]!.split(" ").length).toBe(4 + 60);
    // Main pids: one shell over the control groups; this fake host has none, so one show asks systemctl.
    expect(twelve!.again.lines).toEqual([
      expect.stringMatching(/^\/bin\/sh -c [\s\S]*cgroup\.procs[\s\S]* sh …$/),
      "systemctl list-unit-files --output=json -- …",
      "systemctl list-units --all --output=json -- …",
      "systemctl show -p Id,MainPID -- …",
    ]);
    expect(sixty!.again.lines.length).toBe(twelve!.again.lines.length);
    expect(twelve!.removal.lines).toEqual([
      "systemctl disable --now -- …",
      "systemctl daemon-reload",
      "systemctl reset-failed -- …",
    ]);
    expect(sixty!.removal.lines).toEqual(twelve!.removal.lines);
    expect([...sixty!.fake.units.values()].some((u) => u.active || u.enabled)).toBe(false);
  });
});
