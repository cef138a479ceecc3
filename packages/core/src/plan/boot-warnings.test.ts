import { describe, expect, it } from "vitest";
import { simProvider } from "../__fixtures__/sim-provider.js";
import { simSession } from "../__fixtures__/sim-session.js";
import { applyPlan, formatPlan, hasChanges, planToJson, type ProviderDefinition } from "../index.js";
import { bootWarnings } from "./boot-warnings.js";

const FAST = { verify: { settle: 0.05 } };
const web = (desired?: { state: "running" | "stopped"; enabled: boolean }) => ({ type: "service", name: "web", exec: "/opt/web", ...FAST, ...(desired ? { desired } : {}) });

async function cycle(resources: unknown[], provider: ProviderDefinition, root?: string) {
  const { session, root: dir } = await simSession(resources, [provider], root ? { root } : {});
  const { plan, state, assigned } = await session.buildPlan({});
  await applyPlan(session, plan, state, assigned, {});
  return { plan, root: dir };
}

describe("boot truth in the plan", () => {
  it("warns, without a change, about a running service that boot would not start, naming the reason", async () => {
    const sim = simProvider();
    const first = await cycle([web()], sim.provider);
    sim.units.get("tend-web")!.bootBlocker = "alice has no linger, so her manager starts only when she logs in";
    const second = await cycle([web()], sim.provider, first.root);
    expect(hasChanges(second.plan)).toBe(false);
    expect(formatPlan(second.plan)).toContain(
      "  ! service:web warning: runs now, but would not start after a reboot: alice has no linger, so her manager starts only when she logs in\n",
    );
    expect(planToJson(second.plan)).toMatchObject({ changes: [{ key: "service:web", action: "none", warnings: [expect.stringContaining("no linger")] }] });
  });

  it("says once, at plan time, that a desired state would not survive a reboot", async () => {
    const sim = simProvider();
    const first = await cycle([web({ state: "running", enabled: false })], sim.provider);
    const line = "service:web warning: desired running but not enabled: it runs after this apply, but would not start after a reboot";
    expect(formatPlan(first.plan)).toContain(line);
    const second = await cycle([web({ state: "running", enabled: false })], sim.provider, first.root);
    expect(formatPlan(second.plan).split(line)).toHaveLength(2);
    expect(hasChanges(second.plan)).toBe(false);
  });

  it("is quiet when what runs now is what boot brings back", async () => {
    const sim = simProvider();
    const first = await cycle([web()], sim.provider);
    const second = await cycle([web()], sim.provider, first.root);
    expect(second.plan.entries[0]!.warnings).toEqual([]);
  });
});

describe("bootWarnings", () => {
  const running = { exists: true, state: "running" as const, enabled: false, atBoot: { starts: false, why: "it is not enabled" } };
  it("skips a prediction this plan makes stale by enabling or disabling", () => {
    expect(bootWarnings({ state: "running", enabled: true }, running, new Set(["enable"]))).toEqual([]);
    expect(bootWarnings({ state: "running", enabled: true }, running, new Set())).toEqual(["runs now, but would not start after a reboot: it is not enabled"]);
  });
  it("reports a stopped service boot would start, and judges by the state after this plan", () => {
    const enabled = { exists: true, state: "stopped" as const, enabled: true, atBoot: { starts: true } };
    expect(bootWarnings({ state: "stopped", enabled: false }, enabled, new Set())).toEqual(["stopped now, but would start after a reboot"]);
    expect(bootWarnings({ enabled: true }, enabled, new Set())).toEqual([]);
    expect(bootWarnings({ state: "running", enabled: true }, enabled, new Set(["start"]))).toEqual([]);
    expect(bootWarnings({ state: "running", enabled: true }, running, new Set(["stop"]))).toEqual([]);
  });
});
