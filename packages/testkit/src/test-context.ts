import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  LocalHostFiles,
  type ApplyContext,
  type HostFacts,
  type InitName,
  type ReadContext,
  type RenderContext,
  type Runner,
  type Scope,
} from "@tend/core";
import { RecordingRunner } from "./recording-runner.js";

export interface TestContextOptions {
  init: InitName;
  /** Default: the system scope. `"user"` gives alice (uid 1000, home /home/alice). */
  scope?: Scope | "user";
  host?: Partial<HostFacts>;
}

export const ALICE: Scope = { kind: "user", user: "alice", uid: 1000, gid: 1000, home: "/home/alice" };

/** A render context for golden tests: host `testhost`, user alice unless told otherwise. */
export function renderContext(options: TestContextOptions): RenderContext {
  const scope = options.scope === "user" ? ALICE : (options.scope ?? { kind: "system" as const });
  const host: HostFacts = {
    name: "testhost",
    init: options.init,
    os: options.init === "launchd" ? "darwin" : "linux",
    arch: "x64",
    user: scope.kind === "user" ? scope.user : "root",
    home: scope.kind === "user" ? scope.home : "/root",
    ...options.host,
  };
  return { host, init: options.init, scope };
}

export interface TestApplyContext extends ApplyContext {
  runner: RecordingRunner;
  logged: string[];
  /** The temp folder that stands for the host's `/`. */
  rootDir: string;
}

/**
 * An apply context over a temp folder standing for the host's `/` and a recording runner:
 * files land under `rootDir`, commands are recorded, sleeps are instant. `offline` is false, so
 * providers behave as on a live host (their commands are recorded, not run).
 */
export async function applyContext(options: TestContextOptions & { runner?: RecordingRunner; offline?: boolean }): Promise<TestApplyContext> {
  const base = renderContext(options);
  const rootDir = await mkdtemp(join(tmpdir(), "tend-test-"));
  const runner = options.runner ?? new RecordingRunner();
  const bag = new Map<string, unknown>();
  const logged: string[] = [];
  return {
    ...base,
    run: runner,
    runner,
    files: new LocalHostFiles(rootDir, base.scope.kind === "user" ? { ...base.scope, uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 } : base.scope),
    ...(options.offline ? { root: rootDir } : {}),
    rootDir,
    offline: options.offline ?? false,
    state: { get: <T>(key: string) => bag.get(key) as T | undefined, set: (key, value) => void bag.set(key, value) },
    log: (line) => void logged.push(line),
    logged,
    sleep: async () => undefined,
  };
}

/** A read context (observe, probe) with the given runner. */
export async function readContext(options: TestContextOptions & { runner: Runner }): Promise<ReadContext> {
  return applyContext({ ...options, runner: options.runner as RecordingRunner });
}
