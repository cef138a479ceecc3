import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyPlan, ProviderRegistry, Session, validateSpec, type Resource } from "@tend/core";
import { describe, expect, it } from "vitest";
import { FakeS6 } from "./__testing__/fake-s6.js";
import s6Provider from "./index.js";

const services = (n: number, extra: Record<string, unknown> = {}) =>
  Array.from({ length: n }, (_, i) => ({ type: "service", name: `s${i}`, exec: `/opt/demo/bin/demo s${i}`, restart: "always", verify: { settle: 0 }, ...extra }));

/** One apply through the core, on a temp root standing for `/`, against a fake s6 with s6-rc. */
async function apply(resources: unknown[], fake: FakeS6, root: string) {
  const registry = new ProviderRegistry([]);
  registry.register(s6Provider);
  const session = Session.fromParts({
    host: { facts: { name: "testhost", init: "s6", os: "linux", arch: "x64", user: "root", home: "/root" }, scope: { kind: "system" } },
    spec: { file: join(root, "tend.yaml"), resources: validateSpec(resources) as Resource[], providers: [] },
    registry,
    root,
    offline: false,
    runner: fake.runner,
  });
  fake.runner.clear();
  const { plan, state, assigned } = await session.buildPlan();
  const report = await applyPlan(session, plan, state, assigned);
  expect(report.failures).toEqual([]);
  return fake.shapes;
}

describe("batching: the number of s6 commands does not grow with the number of services", () => {
  it("fresh apply, no-op plan, restartOn, stop and removal cost the same commands for 3 services as for 60", async () => {
    const runs = [];
    for (const n of [3, 60]) {
      const root = await mkdtemp(join(tmpdir(), "tend-s6-batch-"));
      const fake = new FakeS6(root);
      const conf = (content: string) => ({ type: "file", name: "conf", path: "/etc/demo.conf", content });
      const fresh = await apply(services(n), fake, root);
      const again = await apply(services(n), fake, root);
      await apply([conf("a"), ...services(n, { restartOn: ["file:conf"] })], fake, root);
      const restartOn = await apply([conf("b"), ...services(n, { restartOn: ["file:conf"] })], fake, root);
      const stop = await apply(services(n, { desired: { state: "stopped", enabled: true } }), fake, root);
      const removal = await apply([], fake, root);
      runs.push({ n, fresh, again, restartOn, stop, removal, fake });
    }
    const [three, sixty] = runs;
    expect(three!.fresh).toEqual([
      "s6-rc -b -l /run/s6-rc -a list", // observe
      "s6-rc-db -b -l /run/s6-rc list services",
      "s6-rc-compile ROOT/etc/s6/db/tend-g1-a ROOT/etc/s6/sv", // once per apply
      "s6-rc-update -b -l /run/s6-rc /etc/s6/db/tend-g1-a",
      "s6-rc -b -l /run/s6-rc -t 60000 -u -- change …", // one for the whole wave
      "s6-svc -u -- …",
      "s6-svstat …", // verify: up (settle 0: no second reading)
      "s6-rc -b -l /run/s6-rc -a list", // the state the spec asked for
      "s6-rc-db -b -l /run/s6-rc list services",
      "s6-svstat …",
    ]);
    expect(three!.again).toEqual(["s6-rc -b -l /run/s6-rc -a list", "s6-rc-db -b -l /run/s6-rc list services", "s6-svstat …"]);
    expect(three!.restartOn).toEqual([
      ...three!.again,
      "s6-svc -d -wD -T 20000 -- …", // down, ./finish done: nothing of the old programs left
      "s6-rc -b -l /run/s6-rc -t 60000 -u -- change …",
      "s6-svc -u -- …",
      "s6-svstat …", // verify: up
      ...three!.again,
    ]);
    expect(three!.stop.slice(3)).toEqual(["s6-rc -b -l /run/s6-rc -t 60000 -d -- change …", "s6-svc -d -wD -T 20000 -- …", ...three!.again]);
    expect(three!.removal).toEqual([
      "s6-rc-db -b -l /run/s6-rc list services",
      "s6-rc-db -b -l /run/s6-rc -d all-dependencies …", // what -d would bring down: none kept
      "s6-rc -b -l /run/s6-rc -t 60000 -d -- change …",
      "s6-rc-compile ROOT/etc/s6/db/tend-g2-a ROOT/etc/s6/sv",
      "s6-rc-update -b -l /run/s6-rc /etc/s6/db/tend-g2-a",
    ]);
    for (const step of ["fresh", "again", "restartOn", "stop", "removal"] as const) expect(sixty![step], step).toEqual(three![step]);
    expect(sixty!.fake.runner.calls.find((c) => c.argv.includes("change"))!.argv).toHaveLength(9 + 60);
    expect([...sixty!.fake.live]).toEqual([]);
  });
});
