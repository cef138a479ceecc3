import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simProvider } from "../__fixtures__/sim-provider.js";
import { simSession } from "../__fixtures__/sim-session.js";
import { applyPlan, defineProvider, formatPlan, type Observation, type Package, type ProviderDefinition } from "../index.js";

/** A package manager in memory: `installed` is what the host has; apply installs what the spec asks. */
function fakePackages(installed: Map<string, string>, latest = "1.0") {
  const want = (p: Package) => p.version ?? (p.state === "latest" ? latest : installed.get(p.name) ?? latest);
  const provider = defineProvider({
    apiVersion: 1,
    name: "fakepkg",
    serves: { inits: [], types: ["package"], fallback: true },
    capabilities: {} as ProviderDefinition["capabilities"],
    render: () => [],
    async observe(resources) {
      const found = new Map<string, Observation>();
      for (const p of resources) {
        const version = installed.get(p.name);
        const drift = version === undefined ? ["not installed"] : version !== want(p) ? [`installed ${version}, want ${want(p)}`] : [];
        found.set(`package:${p.name}`, { exists: version !== undefined, ...(version !== undefined ? { version } : {}), drift });
      }
      return found;
    },
    async apply(change) {
      installed.set(change.resource.name, want(change.resource));
    },
    async remove(change) {
      installed.delete(change.resource.name);
    },
  });
  return provider as unknown as ProviderDefinition;
}

const FAST = { verify: { settle: 0.05 } };
const DEMO = { type: "package", name: "demo" };
const WEB = { type: "service", name: "web", exec: "/usr/bin/demo", requires: ["Package[demo]"], restartOn: ["Package[demo]"], ...FAST };

async function cycle(resources: unknown[], providers: ProviderDefinition[], root?: string) {
  const { session, runner, root: dir } = await simSession(resources, providers, root ? { root } : {});
  const { plan, state, assigned } = await session.buildPlan({});
  const report = await applyPlan(session, plan, state, assigned, {});
  return { plan, report, runner, root: dir };
}

describe("a package a service restarts on", () => {
  it("is installed before the service starts, and its version is recorded in the state", async () => {
    const installed = new Map<string, string>();
    const first = await cycle([DEMO, WEB], [simProvider().provider, fakePackages(installed)]);
    expect(first.report.failures).toEqual([]);
    expect(first.plan.entries.map((e) => `${e.action} ${e.key}`)).toEqual(["add package:demo", "add service:web"]);
    const state = JSON.parse(await readFile(join(first.root, "var/lib/tend/state.json"), "utf8"));
    expect(state.resources["package:demo"]).toMatchObject({ provider: "fakepkg", version: "1.0" });
  });

  it("restarts the service when the package was upgraded outside tend since the last apply, then plans nothing", async () => {
    const installed = new Map<string, string>();
    const sim = simProvider();
    const first = await cycle([DEMO, WEB], [sim.provider, fakePackages(installed)]);
    installed.set("demo", "1.1");
    const second = await cycle([DEMO, WEB], [sim.provider, fakePackages(installed, "1.1")], first.root);
    expect(formatPlan(second.plan)).toContain("  ~ service:web  restart\n      reason  package:demo upgraded 1.0 → 1.1\n");
    expect(second.runner.lines).toContain("simctl restart -- tend-web");
    expect(second.report.failures).toEqual([]);
    const third = await cycle([DEMO, WEB], [sim.provider, fakePackages(installed, "1.1")], first.root);
    expect(third.plan.entries.map((e) => `${e.action} ${e.key}`)).toEqual(["none package:demo", "none service:web"]);
  });

  it("restarts the service in the apply that changes the package's version", async () => {
    const installed = new Map<string, string>();
    const sim = simProvider();
    const first = await cycle([DEMO, WEB], [sim.provider, fakePackages(installed)]);
    const second = await cycle([{ ...DEMO, version: "1.2" }, WEB], [sim.provider, fakePackages(installed)], first.root);
    expect(second.plan.entries.map((e) => `${e.action} ${e.key} ${e.ops.join(",")}`)).toEqual(["change package:demo ", "change service:web restart"]);
    expect(second.runner.lines).toContain("simctl restart -- tend-web");
    expect(installed.get("demo")).toBe("1.2");
    const third = await cycle([{ ...DEMO, version: "1.2" }, WEB], [sim.provider, fakePackages(installed)], first.root);
    expect(third.plan.entries.every((e) => e.action === "none")).toBe(true);
  });
});
