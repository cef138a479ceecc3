import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import type { HostAccess, HostFacts, HostLock, OpenedSpec, Paint, ProviderRegistry, Scope } from "@tend/core";
import { TendError } from "@tend/core";
import type { InventoryHost } from "../inventory/load-inventory.js";
import { detectHost } from "../remote/detect-host.js";
import { addNameServiceUsers } from "../remote/name-service-users.js";
import { RemoteHostFiles } from "../remote/remote-files.js";
import { RemoteLock } from "../remote/remote-lock.js";
import { RemoteRunner } from "../remote/remote-runner.js";
import { SshConnection } from "../ssh/ssh-connection.js";

/** How a host's run ended. */
export type HostStatus = "ok" | "failed" | "unreachable" | "locked";

export interface HostOutcome {
  name: string;
  init: string;
  status: HostStatus;
  /** Entries of the plan by action; `failed` counts the apply's failures (or 1 for a host that failed before). */
  counts: { add: number; change: number; remove: number; failed: number };
  changes: boolean;
  ms: number;
  /** The host's plan and steps, as the single-host CLI prints them. */
  text: string;
  plan?: unknown;
  steps: string[];
  applied: boolean;
  errors: TendError[];
}

export interface FleetOptions {
  command: "plan" | "apply";
  hosts: InventoryHost[];
  opened: OpenedSpec;
  registry: ProviderRegistry;
  parallel?: number;
  adopt?: boolean;
  lockTimeoutMs?: number;
  paint: Paint;
  /** Extra text after each host's plan (the CLI's --diff section). */
  planExtra?: (plan: import("@tend/core").Plan) => string;
  planJson?: (plan: import("@tend/core").Plan) => unknown;
  /** Live progress: a host's current step. */
  progress?: (host: string, text: string) => void;
  /** A host finished (the CLI prints its group then). */
  done?: (outcome: HostOutcome) => void;
  signal?: AbortSignal;
  /** The signal's name, for the interrupted hosts' error. */
  signalName?: () => string;
}

/** Default `--parallel`: plenty for ssh-bound work, bounded for a small machine. */
export function defaultParallel(): number {
  return Math.min(16, 4 * availableParallelism());
}

/**
 * Plans or applies the spec on every host, `parallel` at a time. Each host is planned with its
 * own facts and init over its own connection; one host failing, unreachable or locked never
 * stops the others.
 */
export async function runFleet(options: FleetOptions): Promise<HostOutcome[]> {
  const controlDir = mkdtempSync(join(tmpdir(), "tend-ssh-"));
  const outcomes: HostOutcome[] = [];
  const queue = [...options.hosts];
  const workers = Array.from({ length: Math.max(1, Math.min(options.parallel ?? defaultParallel(), queue.length)) }, async () => {
    for (let host = queue.shift(); host; host = queue.shift()) {
      const outcome = await runHost(host, options, controlDir);
      outcomes.push(outcome);
      options.done?.(outcome);
    }
  });
  try {
    await Promise.all(workers);
  } finally {
    rmSync(controlDir, { recursive: true, force: true });
  }
  const order = new Map(options.hosts.map((h, i) => [h.name, i]));
  return outcomes.sort((a, b) => order.get(a.name)! - order.get(b.name)!);
}

function asTendError(error: unknown, host: string): TendError {
  if (error instanceof TendError) return error;
  return new TendError("TEND_INTERNAL", `${host}: ${(error as Error)?.message ?? String(error)}`, { resource: host });
}

async function runHost(inv: InventoryHost, options: FleetOptions, controlDir: string): Promise<HostOutcome> {
  const started = Date.now();
  const { formatPlan, planCounts, hasChanges, planToJson, applyPlan, ApplyAborted, Session, errors, moreErrors } = await import("@tend/core");
  const outcome: HostOutcome = { name: inv.name, init: "", status: "ok", counts: { add: 0, change: 0, remove: 0, failed: 0 }, changes: false, ms: 0, text: "", steps: [], applied: false, errors: [] };
  const say = (text: string) => options.progress?.(inv.name, text);
  const conn = new SshConnection(inv.name, inv.ssh, controlDir);
  let lock: HostLock | undefined;
  try {
    say("connecting");
    await conn.connect();
    const inits = options.registry.inits;
    const paths = inits.names.flatMap((n) => inits.get(n)?.detect?.paths ?? []);
    say("detecting");
    const found = await detectHost(conn, inv.name, paths);
    if (found.uid !== 0) conn.privilege = "sudo -n ";
    const init = inits.detect({ platform: found.platform, pid1: () => found.pid1, exists: (p) => found.present.has(p) });
    if (!init) throw errors.noInit(inits.names, { resource: inv.name });
    outcome.init = init;
    const detected: Record<string, unknown> = { hostname: found.hostname, kernel: found.kernel, pid1: found.pid1 };
    if (found.distro) detected.distro = found.distro;
    if (found.distroVersion) detected.distroVersion = found.distroVersion;
    const facts: HostFacts = { name: inv.name, init, os: found.platform, arch: found.arch, user: "root", home: found.home, groups: inv.groups, facts: { ...detected, ...inv.facts } };
    const spec = await options.opened.build(facts);
    await addNameServiceUsers(conn, spec.resources, found.users);
    const files = new RemoteHostFiles(conn, inv.name, found.users);
    const access: HostAccess = { runner: new RemoteRunner(conn, inv.name), files, lock: (path: string, _scope: Scope) => new RemoteLock(conn, inv.name, path) };
    const session = Session.fromParts({
      host: { facts, scope: { kind: "system" } },
      spec,
      registry: options.registry,
      access,
      log: (line) => {
        outcome.steps.push(line);
        say(line);
      },
    });
    if (options.signal?.aborted) throw new ApplyAborted("connecting, before changing anything");
    if (options.command === "apply") {
      say("locking");
      lock = session.lock();
      await lock.acquire(options.lockTimeoutMs ?? 0);
    }
    say("planning");
    const { plan, state, assigned } = await session.buildPlan({ adopt: options.adopt });
    const counts = planCounts(plan);
    outcome.counts = { ...counts, failed: 0 };
    outcome.changes = hasChanges(plan);
    outcome.plan = options.planJson ? options.planJson(plan) : planToJson(plan);
    outcome.text = formatPlan(plan, options.paint) + (options.planExtra?.(plan) ?? "");
    if (options.command === "apply" && (outcome.changes || session.stateStore.unsaved)) {
      const report = await applyPlan(session, plan, state, assigned, {
        adopt: options.adopt,
        ...(options.signal ? { signal: options.signal } : {}),
        progress: (event) => say(`[${event.done}/${event.total}] ${event.step}`),
      });
      outcome.applied = true;
      outcome.text += outcome.steps.map((s) => `${s}\n`).join("");
      outcome.errors.push(...report.failures);
      outcome.counts.failed = report.failures.length;
      outcome.text += report.ok ? "apply: done\n" : `apply: ${report.failures.length} failed\n`;
      if (!report.ok) outcome.status = "failed";
    }
  } catch (error) {
    // A signal: the host stops after its current step, its state saved on the host; a rerun finishes.
    const failure = error instanceof ApplyAborted ? moreErrors.interrupted(options.signalName?.() ?? "SIGINT", error.step, { resource: inv.name }) : asTendError(error, inv.name);
    outcome.errors.push(failure);
    outcome.counts.failed = Math.max(1, outcome.counts.failed);
    outcome.status = failure.code === "TEND_FLEET_UNREACHABLE" ? "unreachable" : failure.code === "TEND_LOCKED" ? "locked" : "failed";
    if (outcome.steps.length > 0 && !outcome.text.includes(outcome.steps[0]!)) outcome.text += outcome.steps.map((s) => `${s}\n`).join("");
  } finally {
    lock?.release();
    await conn.close();
    outcome.ms = Date.now() - started;
  }
  return outcome;
}
