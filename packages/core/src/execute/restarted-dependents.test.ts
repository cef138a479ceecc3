import { describe, expect, it } from "vitest";
import { simProvider } from "../__fixtures__/sim-provider.js";
import { simSession } from "../__fixtures__/sim-session.js";
import { applyPlan, formatPlan, planToJson, type ProviderDefinition } from "../index.js";

const FAST = { verify: { settle: 0.05 } };
const service = (name: string, exec: string, extra: Record<string, unknown> = {}) => ({ type: "service", name, exec, ...FAST, ...extra });

async function cycle(resources: unknown[], provider: ProviderDefinition, root?: string) {
  const { session, root: dir } = await simSession(resources, [provider], root ? { root } : {});
  const { plan, state, assigned } = await session.buildPlan();
  const report = await applyPlan(session, plan, state, assigned);
  return { plan, report, root: dir };
}

const alsoRestarts = (plan: Awaited<ReturnType<typeof cycle>>["plan"], key: string) => plan.entries.find((e) => e.key === key)?.alsoRestarts;

describe("services an init restarts with the one tend restarts (dependentsRestart)", () => {
  it("every restart (dinit): plan names the running services after it, and theirs, and apply verifies them: one that does not come back fails", async () => {
    const crash = new Set<string>();
    const sim = simProvider(new Map(), { crashOnStart: crash, dependentsRestart: "always" });
    const spec = (db: string) => [
      service("db", db),
      service("web", "/opt/web", { after: ["db"] }),
      service("cache", "/opt/cache", { after: ["web"] }),
      service("idle", "/opt/idle", { after: ["db"], desired: { state: "stopped", enabled: false } }),
      service("other", "/opt/other"),
    ];
    const first = await cycle(spec("/opt/db v1"), sim.provider);
    expect(first.report.failures).toEqual([]);
    crash.add("tend-cache");
    const second = await cycle(spec("/opt/db v2"), sim.provider, first.root);
    // The stopped one stays out: nothing of it runs to restart.
    expect(alsoRestarts(second.plan, "service:db")).toEqual(["service:web", "service:cache"]);
    expect(formatPlan(second.plan)).toContain("  ~ service:db  restart\n      also  restarts service:web, which comes after it\n      also  restarts service:cache, which comes after it\n");
    expect(JSON.stringify(planToJson(second.plan))).toContain('"alsoRestarts":["service:web","service:cache"]');
    expect(second.report.lines).toContain("service:web: restarted with service:db, which it comes after");
    expect(second.report.lines).toContain("service:web: verified");
    expect(second.report.ok).toBe(false);
    expect(second.report.failures.map((f) => f.location.resource)).toEqual(["service:cache"]);
    expect(second.report.failures[0]!.message).toMatch(/^service:cache did not verify: it did not come up/);
    expect(second.report.lines.some((line) => line.startsWith("service:other:"))).toBe(false);
  });

  it("a restart for a changed definition only (s6-rc): a restartOn match restarts the service alone, and names nothing", async () => {
    const sim = simProvider(new Map(), { dependentsRestart: "definition" });
    const conf = (content: string) => ({ type: "file", name: "conf", path: "/etc/db/db.conf", content });
    const spec = (db: string, content: string) => [conf(content), service("db", db, { restartOn: ["file:conf"] }), service("web", "/opt/web", { after: ["db"] })];
    const first = await cycle(spec("/opt/db v1", "a\n"), sim.provider);
    const triggered = await cycle(spec("/opt/db v1", "b\n"), sim.provider, first.root);
    expect(triggered.plan.entries.find((e) => e.key === "service:db")?.ops).toEqual(["restart"]);
    expect(alsoRestarts(triggered.plan, "service:db")).toBeUndefined();
    const changed = await cycle(spec("/opt/db v2", "b\n"), sim.provider, first.root);
    expect(alsoRestarts(changed.plan, "service:db")).toEqual(["service:web"]);
    expect(changed.report.lines).toContain("service:web: verified");
    expect(changed.report.failures).toEqual([]);
  });

  it("leaves what comes after a service that restarts itself to that service: each restart names the ones up to the next", async () => {
    const sim = simProvider(new Map(), { dependentsRestart: "always" });
    const spec = (db: string, cache: string) => [
      service("db", db),
      service("web", "/opt/web", { after: ["db"] }),
      service("cache", cache, { after: ["web"] }),
      service("tail", "/opt/tail", { after: ["cache"] }),
    ];
    const first = await cycle(spec("/opt/db v1", "/opt/cache v1"), sim.provider);
    const both = await cycle(spec("/opt/db v2", "/opt/cache v2"), sim.provider, first.root);
    expect(alsoRestarts(both.plan, "service:db")).toEqual(["service:web"]);
    expect(alsoRestarts(both.plan, "service:cache")).toEqual(["service:tail"]);
    expect(both.report.lines).toEqual(expect.arrayContaining(["service:web: restarted with service:db, which it comes after", "service:tail: restarted with service:cache, which it comes after", "service:web: verified", "service:tail: verified"]));
    expect(both.report.failures).toEqual([]);
  });

  it("names nothing for an init whose restarts stay with the service, nor for a dependent that restarts in the plan anyway", async () => {
    const plain = simProvider();
    const spec = (db: string, web: string) => [service("db", db), service("web", web, { after: ["db"] })];
    const first = await cycle(spec("/opt/db v1", "/opt/web v1"), plain.provider);
    expect(alsoRestarts((await cycle(spec("/opt/db v2", "/opt/web v1"), plain.provider, first.root)).plan, "service:db")).toBeUndefined();
    const dinitLike = simProvider(new Map(), { dependentsRestart: "always" });
    const second = await cycle(spec("/opt/db v1", "/opt/web v1"), dinitLike.provider);
    const both = await cycle(spec("/opt/db v2", "/opt/web v2"), dinitLike.provider, second.root);
    expect(alsoRestarts(both.plan, "service:db")).toBeUndefined();
    expect(both.report.failures).toEqual([]);
  });
});
