import { readdir, readFile, lstat } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { simProvider, type SimUnit } from "../__fixtures__/sim-provider.js";
import { simSession } from "../__fixtures__/sim-session.js";
import { applyPlan, ApplyAborted } from "../index.js";

const FAST = { verify: { settle: 0 } };

/** Random small specs over the model's shapes: services (some ordered, some triggered), files, timers. */
const specArb = fc
  .record({
    services: fc.uniqueArray(fc.constantFrom("a", "b", "c", "d"), { maxLength: 4 }),
    files: fc.uniqueArray(fc.constantFrom("x", "y"), { maxLength: 2 }),
    timers: fc.uniqueArray(fc.constantFrom("t1", "t2"), { maxLength: 2 }),
    contents: fc.array(fc.string({ maxLength: 8 }), { minLength: 4, maxLength: 4 }),
    stopped: fc.boolean(),
  })
  .map(({ services, files, timers, contents, stopped }) => [
    ...files.map((f, i) => ({ type: "file", name: f, path: `/etc/prop/${f}.conf`, content: contents[i] ?? "" })),
    ...services.map((s, i) => ({
      type: "service",
      name: s,
      exec: `/opt/${s} ${contents[i] ?? ""}`.trim().replace(/[^A-Za-z0-9/ .-]/g, "_"),
      ...(i > 0 ? { after: [services[i - 1]!] } : {}),
      ...(files[0] ? { restartOn: [`file:${files[0]}`] } : {}),
      // The last of the chain: none may run after a service kept stopped.
      ...(stopped && i === services.length - 1 ? { desired: { state: "stopped", enabled: false } } : {}),
      ...FAST,
    })),
    ...timers.map((t) => ({ type: "timer", name: t, exec: `/opt/${t}`, schedule: "@daily" })),
  ]);

async function snapshot(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string) => {
    for (const name of (await readdir(dir).catch(() => [])).sort()) {
      const path = join(dir, name);
      const rel = relative(root, path);
      if (rel.startsWith("var/lib/tend")) continue;
      const info = await lstat(path);
      if (info.isDirectory()) await walk(path);
      else out[rel] = await readFile(path, "utf8");
    }
  };
  await walk(root);
  return out;
}

async function stateResources(root: string) {
  // An apply with nothing to do writes no state at all.
  const state = JSON.parse(await readFile(join(root, "var/lib/tend/state.json"), "utf8").catch(() => '{"resources":{}}'));
  return Object.fromEntries(Object.entries(state.resources as Record<string, { artifacts: unknown; pending?: unknown }>).map(([k, v]) => [k, { artifacts: v.artifacts, pending: v.pending }]));
}

async function applyOnce(spec: unknown[], units: Map<string, SimUnit>, root?: string, abortAfterSaves?: number) {
  const sim = simProvider(units);
  const { session, root: dir } = await simSession(spec, [sim.provider], root ? { root } : {});
  const { plan, state, assigned } = await session.buildPlan();
  const controller = new AbortController();
  if (abortAfterSaves !== undefined) {
    let saves = 0;
    const save = session.stateStore.save.bind(session.stateStore);
    session.stateStore.save = async (s) => {
      await save(s);
      if (++saves > abortAfterSaves) controller.abort();
    };
  }
  try {
    const report = await applyPlan(session, plan, state, assigned, { signal: controller.signal });
    return { root: dir, report, aborted: false };
  } catch (error) {
    if (error instanceof ApplyAborted) return { root: dir, aborted: true };
    throw error;
  }
}

describe("apply, as properties", () => {
  it("converges: after an apply, planning again finds nothing to do", async () => {
    await fc.assert(
      fc.asyncProperty(specArb, specArb, async (first, second) => {
        const units = new Map<string, SimUnit>();
        const one = await applyOnce(first, units);
        const two = await applyOnce(second, units, one.root);
        expect(two.report?.failures).toEqual([]);
        const { session } = await simSession(second, [simProvider(units).provider], { root: one.root });
        const { plan } = await session.buildPlan();
        expect(plan.entries.filter((e) => e.action !== "none").map((e) => e.key)).toEqual([]);
      }),
      { numRuns: 60 },
    );
  }, 180_000);

  it("survives a kill after any step: a rerun ends in the same files and state as an uninterrupted apply", async () => {
    await fc.assert(
      fc.asyncProperty(specArb, specArb, fc.nat({ max: 12 }), async (first, second, killAt) => {
        const cleanUnits = new Map<string, SimUnit>();
        const clean = await applyOnce(first, cleanUnits);
        await applyOnce(second, cleanUnits, clean.root);
        const units = new Map<string, SimUnit>();
        const killed = await applyOnce(first, units);
        await applyOnce(second, units, killed.root, killAt);
        const rerun = await applyOnce(second, units, killed.root);
        expect(rerun.report?.failures).toEqual([]);
        expect(await snapshot(killed.root)).toEqual(await snapshot(clean.root));
        expect(await stateResources(killed.root)).toEqual(await stateResources(clean.root));
        const summary = (m: Map<string, SimUnit>) => Object.fromEntries([...m].map(([k, u]) => [k, { enabled: u.enabled, running: u.running }]));
        expect(summary(units)).toEqual(summary(cleanUnits));
      }),
      { numRuns: 60 },
    );
  }, 180_000);
});
