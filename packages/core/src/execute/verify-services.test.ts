import { afterEach, describe, expect, it, vi } from "vitest";
import { defineProvider, type ApplyContext, type Probe } from "../index.js";
import { verifyServices } from "./verify-services.js";

const HOUR = 3_600_000;

/** A provider whose service comes up at the third probe and stays up with the same identity. */
function slowStarter() {
  let probes = 0;
  return defineProvider({
    apiVersion: 1,
    name: "slow",
    serves: { inits: ["runit"], types: ["service"] },
    capabilities: { service: {} },
    render: () => [],
    observe: async () => new Map(),
    apply: async () => undefined,
    remove: async () => undefined,
    startTimeoutMs: 5_000,
    async probe(resources) {
      probes += 1;
      return new Map(resources.map((r) => [`service:${r.name}`, { up: probes >= 3, identity: "1", detail: `probe ${probes}` } satisfies Probe]));
    },
  });
}

describe("verifyServices", () => {
  afterEach(() => vi.restoreAllMocks());

  it("keeps waiting for a slow start when the wall clock jumps an hour ahead meanwhile (it times on a monotonic clock)", async () => {
    let wall = Date.now();
    vi.spyOn(Date, "now").mockImplementation(() => wall);
    const provider = slowStarter();
    const target = { key: "service:web", resource: { type: "service" as const, name: "web", exec: "/bin/web", verify: { settle: 0 } }, provider, ctx: {} as ApplyContext };
    const failures = await verifyServices([target], async () => {
      wall += HOUR; // an NTP step, a laptop resumed
    });
    expect(failures).toEqual([]);
  });
});
