import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RecordingRunnerForCore } from "../__fixtures__/recording-runner-for-core.js";
import { simProvider } from "../__fixtures__/sim-provider.js";
import { applyPlan, LocalHostAccess, ProviderRegistry, Session, validateSpec, type HostAccess, type HostLock, type Resource, type Scope } from "../index.js";

/** A HostAccess that records what the engine asks of the host, doing it on a local root. */
function recordingAccess(root: string, scope: Scope) {
  const local = new LocalHostAccess(root, scope, new RecordingRunnerForCore());
  const calls: string[] = [];
  const files = new Proxy(local.files, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (name === "inspectAll") calls.push(`inspectAll ${(args[0] as string[]).length}`);
        if (name === "perform") calls.push(`perform ${(args[0] as { op: string }[]).map((o) => o.op).join(",")}`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const access: HostAccess = {
    runner: local.runner,
    files,
    lock(path: string, lockScope: Scope): HostLock {
      calls.push(`lock ${path}`);
      return local.lock(path, lockScope);
    },
  };
  return { access, calls };
}

const FILES = Array.from({ length: 5 }, (_, i) => ({ type: "file", name: `conf${i}`, path: `/etc/app/conf${i}`, content: `n = ${i}\n` }));
const WEB = { type: "service", name: "web", exec: "/opt/web", restartOn: ["file:conf0"], verify: { settle: 0.05 } };

describe("the engine reaches a host only through its HostAccess", () => {
  it("plans, locks and applies through the access it is given: core files read in one batch, writes in batches", async () => {
    const root = await mkdtemp(join(tmpdir(), "tend-access-"));
    const scope: Scope = { kind: "system" };
    const { access, calls } = recordingAccess(root, scope);
    const registry = new ProviderRegistry([]);
    registry.register(simProvider().provider);
    const session = Session.fromParts({
      host: { facts: { name: "remote", init: "runit", os: "linux", arch: "x64", user: "root", home: "/root", groups: ["web"], facts: { role: "edge" } }, scope },
      spec: { file: join(root, "tend.yaml"), resources: validateSpec([...FILES, WEB]) as Resource[], providers: [] },
      registry,
      access,
    });
    const lock = session.lock();
    await lock.acquire();
    const { plan, state, assigned } = await session.buildPlan();
    const report = await applyPlan(session, plan, state, assigned);
    lock.release();

    expect(report.failures).toEqual([]);
    expect(await readFile(join(root, "etc/app/conf3"), "utf8")).toBe("n = 3\n");
    expect(calls[0]).toBe("lock /var/lib/tend/lock");
    // The state and its journal in one batch, then six artifacts (five files and the service's
    // config), read for drift in one batch.
    expect(calls.filter((c) => c.startsWith("inspectAll"))).toEqual(["inspectAll 2", "inspectAll 6"]);
    // Every write of the apply went through perform: the six files in one batch.
    expect(calls).toContain("perform write,write,write,write,write,write");
  });
});
