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

  it("reads once when every service verified together asks for no settle window, and reads again after a window", async () => {
    const scripted = (readings: boolean[]) => {
      const seen: number[] = [];
      const provider = defineProvider({
        ...slowStarter(),
        async probe(resources) {
          seen.push(seen.length);
          const up = readings[Math.min(seen.length - 1, readings.length - 1)]!;
          return new Map(resources.map((r) => [`service:${r.name}`, { up, identity: "1", detail: up ? "running" : "down" } satisfies Probe]));
        },
      });
      return { provider, seen };
    };
    const target = (provider: ReturnType<typeof slowStarter>, settle: number) => ({ key: "service:web", resource: { type: "service" as const, name: "web", exec: "/bin/web", verify: { settle } }, provider, ctx: {} as ApplyContext });
    const slept: number[] = [];
    const sleep = async (ms: number) => void slept.push(ms);

    const once = scripted([true, false]);
    expect(await verifyServices([target(once.provider, 0)], sleep)).toEqual([]);
    expect(once.seen).toHaveLength(1);
    expect(slept).toEqual([]);

    const twice = scripted([true, false]);
    const failures = await verifyServices([target(twice.provider, 1)], sleep);
    expect(twice.seen).toHaveLength(2);
    expect(slept).toEqual([1000]);
    expect(failures.map((f) => f.message)).toEqual([expect.stringContaining("it stopped within 1 s of starting (down)")]);
  });
});
