import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { applySpec, planSpec } from "./apply-spec.js";
import { demoStarts } from "./demo-daemon.js";
import { livePids } from "./exec-forms.js";
import { doc } from "./spec-documents.js";

/** One of the walk's services as the spec has it now. */
interface Walker {
  name: string;
  present: boolean;
  state: "running" | "stopped";
  enabled: boolean;
  restart: "always" | "on_failure";
  /** Its GREETING: a new one is a changed definition, which restarts it when it runs. */
  greeting: number;
  /** A service before it in the list that it comes after (so the spec never has a cycle). */
  after?: string;
}

/** A small seeded generator (mulberry32): the same seed walks the same way on every run. */
function generator(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

function document(w: Walker): string {
  return doc(
    `type: Service\nname: ${w.name}\nexec: /opt/demo/bin/demo ${w.name}\nrestart: ${w.restart}\nenv:\n  GREETING: g${w.greeting}\n` +
      `desired: {state: ${w.state}, enabled: ${w.enabled}}\nverify: {settle: 0.5}${w.after ? `\nafter: [${w.after}]` : ""}`,
  );
}

/**
 * The walk every init's suite takes: seed 101 (its 25th edit found an s6-rc bug) and 30 edits,
 * unless `TEND_IT_WALK_SEED` and `TEND_IT_WALK_STEPS` say otherwise (to look for more by hand).
 */
export const WALK = { seed: Number(process.env.TEND_IT_WALK_SEED ?? 101), steps: Number(process.env.TEND_IT_WALK_STEPS ?? 30) };

/** What one walk may take: each edit starts or restarts at most a few services, with a 0.5 s settle window. */
export const WALK_TIMEOUT_MS = WALK.steps * 10_000 + 60_000;

/**
 * A random walk of `steps` edits of a spec of three services (DEMO, installed as
 * /opt/demo/bin/demo), the same walk for the same `seed`: each edit adds or removes one, sets its
 * `desired` state and enablement, changes its definition (its env), its restart policy, or the
 * service it comes after. After each apply (which must succeed), the next plan has nothing to do,
 * the process table holds one program for each service that is to run and none for the others
 * (removed ones included), and one that runs runs its current definition. A failure names the
 * seed, the step and the edit, and the walk so far is in the spec at `path`.
 */
export async function proveRandomWalk(host: TestHost, path: string, base: string[], seed: number, steps: number): Promise<void> {
  const pick = generator(seed);
  const walkers: Walker[] = ["rw0", "rw1", "rw2"].map((name) => ({ name, present: false, state: "running", enabled: true, restart: "always", greeting: 0 }));
  let greeting = 0;
  for (let step = 1; step <= steps; step += 1) {
    const w = walkers[pick(walkers.length)]!;
    const index = walkers.indexOf(w);
    let edit: string;
    const kind = w.present ? pick(5) : 0;
    if (kind === 0) {
      w.present = !w.present;
      edit = w.present ? "add" : "remove";
    } else if (kind === 1) {
      [w.state, w.enabled] = [(["running", "stopped"] as const)[pick(2)]!, pick(2) === 1];
      edit = `desired ${w.state}, enabled ${w.enabled}`;
    } else if (kind === 2) {
      w.greeting = greeting += 1;
      edit = `greeting g${w.greeting}`;
    } else if (kind === 3) {
      w.restart = w.restart === "always" ? "on_failure" : "always";
      edit = `restart ${w.restart}`;
    } else {
      const earlier = walkers.slice(0, index).filter((other) => other.present);
      w.after = w.after || earlier.length === 0 ? undefined : earlier[pick(earlier.length)]!.name;
      edit = w.after ? `after ${w.after}` : "after nothing";
    }
    // A service may come only after one the spec declares, and one that is to run only after one that runs too (cross-check.ts).
    for (const other of walkers) {
      const target = walkers.find((x) => x.name === other.after);
      if (target && (!target.present || (target.state === "stopped" && other.state === "running"))) other.after = undefined;
    }
    const where = `seed ${seed}, step ${step}: ${w.name} ${edit}`;
    const docs = walkers.filter((x) => x.present).map(document);
    await applySpec(host, path, [...base, ...docs]).catch((error: unknown) => {
      throw new Error(`${where}: apply failed\n${String(error)}`);
    });
    await planSpec(host, path, 0).catch((error: unknown) => {
      throw new Error(`${where}: the next plan is not clean\n${String(error)}`);
    });
    for (const x of walkers) {
      const live = await livePids(host, x.name);
      const running = x.present && x.state === "running";
      expect(live, `${where}: live processes of ${x.name}`).toHaveLength(running ? 1 : 0);
      if (!running) continue;
      const start = (await demoStarts(host, x.name)).find((line) => line.startsWith(`start ${live[0]} `));
      expect(start, `${where}: what ${x.name} runs`).toBe(`start ${live[0]} g${x.greeting}`);
    }
  }
}
