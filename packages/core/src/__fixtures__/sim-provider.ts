import { defineProvider, type Observation, type Probe, type Resource } from "../index.js";

/** The simulated init's runtime state: what a real init would remember. */
export interface SimUnit {
  enabled: boolean;
  running: boolean;
  pid: number;
  canReload?: boolean;
  /** Why boot would not start it even when enabled (a user manager without linger). */
  bootBlocker?: string;
}

export interface SimOptions {
  /** Units that die as they start. */
  crashOnStart?: Set<string>;
  /** Like dinit or s6-rc: a restart also restarts the running units that come after it (`after`), as the capability says. */
  dependentsRestart?: "always" | "definition";
}

/**
 * A minimal provider for core tests: renders a config file and an enable link per service under
 * /etc/sim, and keeps the "init" in memory. Every operation also goes through the runner, so
 * command sequences can be asserted. Not shipped: tests only.
 */
export function simProvider(units = new Map<string, SimUnit>(), options: SimOptions = {}) {
  let nextPid = 100;
  /** The units each unit comes after, as its last apply said. */
  const afters = new Map<string, string[]>();
  const restartDependents = (name: string): void => {
    for (const [dependent, after] of afters) {
      const unit = units.get(dependent);
      if (!after.includes(name) || !unit?.running) continue;
      unit.running = !options.crashOnStart?.has(dependent);
      unit.pid = nextPid++;
      restartDependents(dependent);
    }
  };
  const unitName = (r: Resource) => (r.type === "service" && r.exec === undefined ? r.name : `tend-${r.name}`);
  return {
    units,
    provider: defineProvider({
      apiVersion: 1,
      name: "sim",
      serves: { inits: ["runit"], types: ["service", "timer"] },
      capabilities: { service: { distroUnits: true, reloadSignal: true, after: "services", ...(options.dependentsRestart ? { dependentsRestart: options.dependentsRestart } : {}) }, timer: {} },
      render(resource) {
        if (resource.type === "service" && resource.exec === undefined) return [];
        const body = JSON.stringify(resource.type === "timer" ? { exec: resource.exec, schedule: resource.schedule } : { exec: resource.type === "service" ? resource.exec : "", env: resource.type === "service" ? (resource.env ?? {}) : {} });
        return [{ path: `/etc/sim/tend-${resource.name}.conf`, content: `# Managed by tend. Edits are overwritten on the next apply.\n${body}\n`, mode: 0o644 }];
      },
      async observe(resources, ctx) {
        await ctx.run.run({ argv: ["simctl", "status", ...resources.map(unitName)] });
        const out = new Map<string, Observation>();
        for (const r of resources) {
          // A distro unit can also be shipped as a file (by a package, or a `file` resource).
          if (!units.has(unitName(r)) && (await ctx.files.exists(`/lib/sim/${unitName(r)}`))) units.set(unitName(r), { enabled: false, running: false, pid: 0 });
          const unit = units.get(unitName(r));
          out.set(`${r.type}:${r.name}`, unit ? { exists: true, state: unit.running ? "running" : "stopped", enabled: unit.enabled, ...(unit.running ? { mainPid: unit.pid } : {}), ...(unit.canReload ? { canReload: true } : {}), atBoot: atBootOf(unit) } : { exists: false });
        }
        return out;
      },
      async apply(change, ctx) {
        const name = unitName(change.resource);
        if (change.resource.type === "service") afters.set(name, (change.resource.after ?? []).map((n) => `tend-${n}`));
        for (const op of change.ops) {
          await ctx.run.run({ argv: ["simctl", op, "--", name] });
          const unit = units.get(name) ?? { enabled: false, running: false, pid: 0 };
          units.set(name, unit);
          if (op === "enable") unit.enabled = true;
          if (op === "disable") unit.enabled = false;
          if (op === "stop") unit.running = false;
          if (op === "start" || op === "restart") {
            if (ctx.offline) continue;
            unit.running = !options.crashOnStart?.has(name);
            unit.pid = nextPid++;
          }
          const carries = options.dependentsRestart === "always" || (options.dependentsRestart === "definition" && change.filesChanged);
          if (op === "restart" && carries) restartDependents(name);
        }
      },
      async remove(change, ctx) {
        const name = unitName(change.resource);
        await ctx.run.run({ argv: ["simctl", "disable", "--now", "--", name] });
        if (change.resource.type === "service" && change.resource.exec === undefined) {
          const unit = units.get(name);
          if (unit) unit.enabled = false;
        } else units.delete(name);
      },
      async afterWrites(_changes, paths, ctx) {
        if (paths.some((p) => p.startsWith("/etc/sim/"))) await ctx.run.run({ argv: ["simctl", "reload-config"] });
      },
      async probe(resources) {
        const out = new Map<string, Probe>();
        for (const r of resources) {
          // A distro unit can also be shipped as a file (by a package, or a `file` resource).
          if (!units.has(unitName(r)) && (await ctx.files.exists(`/lib/sim/${unitName(r)}`))) units.set(unitName(r), { enabled: false, running: false, pid: 0 });
          const unit = units.get(unitName(r));
          out.set(`${r.type}:${r.name}`, { up: Boolean(unit?.running), identity: String(unit?.pid ?? 0), detail: unit?.running ? `running pid ${unit.pid}` : "down" });
        }
        return out;
      },
      managedFolders: () => [{ dir: "/etc/sim", prefix: "tend-" }],
      startTimeoutMs: 50,
      async logs(resource) {
        return [`${unitName(resource)}: exited 1`];
      },
    }),
  };
}

function atBootOf(unit: SimUnit): Observation["atBoot"] {
  if (!unit.enabled) return { starts: false, why: "it is not enabled" };
  return unit.bootBlocker ? { starts: false, why: unit.bootBlocker } : { starts: true };
}
