import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  applyPlan,
  checkCapabilities,
  ProviderRegistry,
  Session,
  validateSpec,
  type Command,
  type CommandResult,
  type InitName,
  type ProviderDefinition,
  type Resource,
  type Runner,
} from "@tend/core";
import { describe, expect, it } from "vitest";
import { RecordingRunner } from "../recording-runner.js";
import { readContext, renderContext } from "../test-context.js";
import { CAPABILITY_PROBES } from "./capability-probes.js";
import { sampleResources } from "./sample-resources.js";

export interface ConformanceOptions {
  /** The provider under test: the package's default export. */
  provider: ProviderDefinition;
  /** The package's package.json (its `tend.provider` manifest is checked against the definition). */
  packageJson: URL | string;
  /** The init to check it on (one it serves, or any for a fallback provider). */
  init: InitName;
  /**
   * A runner answering the commands observe and an image-root apply run, made fresh for each
   * check. Default: a recording runner that answers every command with exit 0 and no output.
   */
  runner?: () => Runner;
  /** The runner for the image-root apply (default `runner`): a real one where the init's tools work offline (`systemctl --root`). */
  offlineRunner?: () => Runner;
  /** Resources to render, observe and apply; default: samples of every type the provider serves. */
  samples?: Resource[];
  /** Lays out an image root before the apply check (the folders the init's packages would make). */
  prepareRoot?: (root: string) => Promise<void>;
  /** Skip the image-root apply check, saying why (a provider that cannot work offline). */
  skipOfflineApply?: string;
}

/**
 * The checks every provider passes, first-party or not, registered as vitest tests:
 * - it speaks contract version 1, and its package.json's manifest says what its code serves;
 * - render is pure and deterministic: the same resource gives the same bytes, touching neither
 *   the resource nor the context;
 * - every capability it claims renders, and every one it does not claim fails plan with its error;
 * - observe is batched: a bounded number of commands, the same for 3 resources as for 30;
 * - an apply into an image root on the simulated host converges: the next plan has nothing to do.
 */
export function describeConformance(options: ConformanceOptions): void {
  const { provider, init } = options;
  const samples = () => options.samples ?? sampleResources(provider.serves.types);
  const newRunner = options.runner ?? (() => new RecordingRunner());

  describe(`conformance of provider ${provider.name} on ${init}`, () => {
    it("speaks contract version 1, and its package.json says what its code serves", () => {
      const pkg = JSON.parse(readFileSync(options.packageJson, "utf8")) as { tend?: { provider?: Record<string, unknown> } };
      const manifest = pkg.tend?.provider;
      expect(manifest, 'package.json has "tend": { "provider": ... }').toBeDefined();
      expect(provider.apiVersion).toBe(1);
      expect(manifest!.apiVersion).toBe(1);
      expect([...(manifest!.types as string[])].sort()).toEqual([...provider.serves.types].sort());
      expect([...((manifest!.inits as string[] | undefined) ?? [])].sort()).toEqual([...provider.serves.inits].sort());
      expect(manifest!.fallback === true).toBe(provider.serves.fallback === true);
      for (const declared of Object.keys((manifest!.declares as object | undefined) ?? {})) expect(provider.serves.inits).toContain(declared);
    });

    it("renders purely: the same resource, the same bytes, and neither resource nor context changed", () => {
      for (const resource of samples()) {
        const ctx = renderContext({ init, ...(isUser(resource) ? { scope: "user" as const } : {}) });
        if (checkCapabilities(resource, provider, { init, packageName: provider.name, own: true }).length > 0 || (provider.check?.(resource, ctx).length ?? 0) > 0) continue;
        const frozen = deepFreeze(structuredClone(resource));
        const frozenCtx = deepFreeze(structuredClone(ctx));
        const first = JSON.stringify(provider.render(frozen, frozenCtx));
        expect(JSON.stringify(provider.render(frozen, frozenCtx)), `${resource.type}:${resource.name} renders the same twice`).toBe(first);
      }
    });

    it("renders every capability it claims, and refuses every one it does not with the capability's error", () => {
      for (const probe of CAPABILITY_PROBES) {
        if (!provider.serves.types.includes(probe.resource.type)) continue;
        const resource = validateSpec([probe.resource])[0]!;
        const server = { init, packageName: provider.name, own: true };
        const found = checkCapabilities(resource, provider, server).filter((e) => e.location.field === probe.field);
        if (probe.claimed(provider)) {
          expect(found.map((e) => e.message), `${probe.name} is claimed, so it is accepted`).toEqual([]);
          const ctx = renderContext({ init, ...(isUser(resource) ? { scope: "user" as const } : {}) });
          expect(() => provider.render(resource, ctx), `${probe.name} is claimed, so it renders`).not.toThrow();
        } else {
          expect(found.length, `${probe.name} is not claimed, so plan refuses it naming \`${probe.field}\``).toBeGreaterThan(0);
        }
      }
    });

    it("observes in one batch: as many commands for 30 resources as for 3", async () => {
      const counts: number[] = [];
      for (const size of [3, 30]) {
        const runner = countingRunner(newRunner());
        const ctx = await readContext({ init, runner });
        const resources = sampleResources(provider.serves.types, size).filter((r) => !isUser(r));
        await provider.observe(resources as never, ctx);
        counts.push(runner.count);
      }
      expect(counts[1], `commands for 30 resources (${counts[1]}) against 3 (${counts[0]})`).toBe(counts[0]);
    });

    it.skipIf(options.skipOfflineApply !== undefined)(`converges in an image root: after an apply, the next plan has nothing to do${options.skipOfflineApply ? ` (skipped: ${options.skipOfflineApply})` : ""}`, async () => {
      const root = await mkdtemp(join(tmpdir(), "tend-conformance-"));
      await options.prepareRoot?.(root);
      const resources = validateSpec(samples().filter((r) => !isUser(r) && checkCapabilities(r, provider, { init, packageName: provider.name, own: true }).length === 0));
      const session = () => {
        const registry = new ProviderRegistry([]);
        registry.register(provider);
        return Session.fromParts({
          host: { facts: { name: "testhost", init, os: "linux", arch: "x64", user: "root", home: "/root" }, scope: { kind: "system" } },
          spec: { file: join(root, "tend.yaml"), resources, providers: [] },
          registry,
          root,
          offline: true,
          runner: (options.offlineRunner ?? newRunner)(),
        });
      };
      const first = session();
      const { plan, state, assigned } = await first.buildPlan();
      const report = await applyPlan(first, plan, state, assigned);
      expect(report.failures.map((f) => f.message)).toEqual([]);
      const again = await session().buildPlan();
      expect(again.plan.entries.filter((e) => e.action !== "none").map((e) => `${e.key} ${e.action}: ${[...e.drift, ...e.ops, ...e.writes.map((w) => w.artifact.path)].join(", ")}`)).toEqual([]);
    });
  });
}

function isUser(resource: Resource): boolean {
  return (resource.type === "service" || resource.type === "timer") && resource.user === true;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function countingRunner(inner: Runner): Runner & { count: number } {
  const runner = {
    count: 0,
    run(command: Command): Promise<CommandResult> {
      runner.count += 1;
      return inner.run(command);
    },
  };
  return runner;
}
