import { readFile, writeFile, mkdir, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simProvider, type SimUnit } from "../__fixtures__/sim-provider.js";
import { simSession } from "../__fixtures__/sim-session.js";
import { applyPlan, contentHash, formatPlan, TendError, type Operation, type ProviderDefinition } from "../index.js";

const FAST = { verify: { settle: 0.05 } };
const WEB = { type: "service", name: "web", exec: "/opt/web --port 8080", restartOn: ["file:conf"], requires: ["file:conf"], ...FAST };
const CONF = { type: "file", name: "conf", path: "/etc/web/web.conf", content: "port = 8080\n" };

async function cycle(resources: unknown[], provider: ProviderDefinition, root?: string, adopt = false) {
  const { session, runner, root: dir } = await simSession(resources, [provider], root ? { root } : {});
  const { plan, state, assigned } = await session.buildPlan({ adopt });
  const report = await applyPlan(session, plan, state, assigned, { adopt });
  return { plan, report, runner, root: dir, session };
}


/** The simulated provider, with every change it is given recorded: its operations and `filesChanged`. */
function recordingChanges() {
  const changes: { ops: string[]; filesChanged: boolean }[] = [];
  const sim = simProvider();
  const provider = { ...sim.provider, apply: async (change: Parameters<typeof sim.provider.apply>[0], ctx: Parameters<typeof sim.provider.apply>[1]) => {
    changes.push({ ops: change.ops, filesChanged: change.filesChanged });
    await sim.provider.apply(change, ctx);
  } };
  return { sim, provider, changes };
}
describe("apply", () => {
  it("adds, then a second plan has nothing to do", async () => {
    const sim = simProvider();
    const first = await cycle([CONF, WEB], sim.provider);
    expect(formatPlan(first.plan)).toBe(
      "host testhost (runit)\n  + file:conf  /etc/web/web.conf\n  + service:web  /opt/web --port 8080\n  2 to add, 0 to change, 0 to remove\n",
    );
    expect(first.report.failures).toEqual([]);
    expect(first.runner.lines).toEqual(["simctl status tend-web", "simctl reload-config", "simctl enable -- tend-web", "simctl start -- tend-web", "simctl status tend-web"]);
    expect(await readFile(join(first.root, "etc/web/web.conf"), "utf8")).toBe("port = 8080\n");
    expect(sim.units.get("tend-web")).toMatchObject({ enabled: true, running: true });
    const second = await cycle([CONF, WEB], sim.provider, first.root);
    expect(second.plan.entries.every((e) => e.action === "none")).toBe(true);
    expect(second.runner.lines).toEqual(["simctl status tend-web"]);
  });

  it("reports an edited file as drift, restores it and keeps the edit", async () => {
    const sim = simProvider();
    const first = await cycle([CONF, WEB], sim.provider);
    const unit = join(first.root, "etc/sim/tend-web.conf");
    await writeFile(unit, "hand edit\n");
    const second = await cycle([CONF, WEB], sim.provider, first.root);
    expect(formatPlan(second.plan)).toContain("  ! service:web drifted: /etc/sim/tend-web.conf was edited\n      then  restart\n");
    expect(await readFile(unit, "utf8")).toContain("Managed by tend");
    const backups = join(first.root, "var/lib/tend/backups");
    const [stamp] = await readdir(backups);
    expect(await readFile(join(backups, stamp!, "file/etc/sim/tend-web.conf"), "utf8")).toBe("hand edit\n");
  });

  it("restarts a service whose restartOn resource changed, naming the trigger", async () => {
    const sim = simProvider();
    const first = await cycle([CONF, WEB], sim.provider);
    const second = await cycle([{ ...CONF, content: "port = 9090\n" }, WEB], sim.provider, first.root);
    expect(formatPlan(second.plan)).toContain("  ~ service:web  restart\n      reason  file:conf changed, restartOn matched\n");
    expect(second.runner.lines).toContain("simctl restart -- tend-web");
  });

  it("keeps a restart that a later failure stopped in the ledger, and the next run carries it out", async () => {
    const sim = simProvider();
    const other = { type: "file", name: "other", path: "/etc/web/other.conf", content: "x\n" };
    const web = { ...WEB, requires: ["file:conf", "file:other"] };
    const first = await cycle([CONF, other, web], sim.provider);
    expect(first.report.failures).toEqual([]);
    const pid = sim.units.get("tend-web")!.pid;
    // a folder where tend's file goes: file:other fails, so web (which requires it) is not applied
    await rm(join(first.root, "etc/web/other.conf"));
    await mkdir(join(first.root, "etc/web/other.conf"));
    const changed = { ...CONF, content: "port = 9090\n" };
    const failing = await cycle([changed, other, web], sim.provider, first.root);
    expect(failing.report.ok).toBe(false);
    expect(await readFile(join(first.root, "etc/web/web.conf"), "utf8")).toBe("port = 9090\n");
    expect(failing.runner.lines.some((l) => l.includes("restart"))).toBe(false);
    const saved = JSON.parse(await readFile(join(first.root, "var/lib/tend/state.json"), "utf8"));
    expect(saved.resources["service:web"]).toMatchObject({ pending: ["restart"], pendingWhy: { restart: "file:conf changed" } });
    // the admin clears the folder; the config change is on disk and recorded, the restart is not done
    await rm(join(first.root, "etc/web/other.conf"), { recursive: true });
    const { session } = await simSession([changed, other, web], [sim.provider], { root: first.root });
    const { plan } = await session.buildPlan();
    expect(formatPlan(plan)).toContain("  ~ service:web  restart\n      reason  file:conf changed in an earlier apply; restart still pending\n");
    const resumed = await cycle([changed, other, web], sim.provider, first.root);
    expect(resumed.report.failures).toEqual([]);
    expect(resumed.runner.lines).toContain("simctl restart -- tend-web");
    expect(sim.units.get("tend-web")!.pid).not.toBe(pid);
    const after = JSON.parse(await readFile(join(first.root, "var/lib/tend/state.json"), "utf8"));
    expect(after.resources["service:web"].pending).toBeUndefined();
    const clean = await cycle([changed, other, web], sim.provider, first.root);
    expect(clean.plan.entries.every((e) => e.action === "none")).toBe(true);
  });

  it("tells the provider to load the definition again for a restart an earlier apply left pending: it may have been killed before the init loaded the files it wrote", async () => {
    const { sim, provider, changes } = recordingChanges();
    const first = await cycle([CONF, WEB], provider);
    const path = join(first.root, "var/lib/tend/state.json");
    const saved = JSON.parse(await readFile(path, "utf8"));
    // What an apply killed after writing web's new definition, before restarting it, leaves (the
    // process started less than a second before: the /proc check cannot tell).
    saved.resources["service:web"].pending = ["restart"];
    saved.resources["service:web"].pendingWhy = { restart: "its definition changed" };
    await writeFile(path, JSON.stringify(saved));
    changes.length = 0;
    const resumed = await cycle([CONF, WEB], provider, first.root);
    expect(formatPlan(resumed.plan)).toContain("      reason  its definition changed in an earlier apply; restart still pending\n");
    expect(resumed.plan.entries.find((e) => e.key === "service:web")!.writes).toEqual([]);
    expect(changes).toEqual([{ ops: ["restart"], filesChanged: true }]);
  });

  it("clears from the ledger what the init already reports done (an apply killed after the step, before its record)", async () => {
    const sim = simProvider();
    const first = await cycle([CONF, WEB], sim.provider);
    const path = join(first.root, "var/lib/tend/state.json");
    const saved = JSON.parse(await readFile(path, "utf8"));
    saved.resources["service:web"].pending = ["enable", "start"];
    await writeFile(path, JSON.stringify(saved));
    const again = await cycle([CONF, WEB], sim.provider, first.root);
    expect(again.plan.entries.every((e) => e.action === "none")).toBe(true);
    expect(again.runner.lines).toEqual(["simctl status tend-web"]);
    expect(JSON.parse(await readFile(path, "utf8")).resources["service:web"].pending).toBeUndefined();
  });

  it("drops from the ledger what the spec now wants otherwise: a start or enable of a service wanted stopped and disabled, a stop or disable of one wanted running and enabled", async () => {
    const sim = simProvider();
    for (const [desired, left] of [
      [{ state: "stopped", enabled: false }, ["enable", "start"]],
      [{ state: "running", enabled: true }, ["stop", "disable"]],
    ] as const) {
      const web = { ...WEB, desired };
      const first = await cycle([CONF, web], sim.provider);
      expect(first.report.failures).toEqual([]);
      const path = join(first.root, "var/lib/tend/state.json");
      const saved = JSON.parse(await readFile(path, "utf8"));
      // What an apply of an earlier spec, which wanted the opposite, left when it was killed.
      saved.resources["service:web"].pending = [...left];
      await writeFile(path, JSON.stringify(saved));
      const again = await cycle([CONF, web], sim.provider, first.root);
      expect(again.report.failures).toEqual([]);
      expect(again.plan.entries.every((e) => e.action === "none")).toBe(true);
      expect(again.runner.lines).toEqual(["simctl status tend-web"]);
      expect(JSON.parse(await readFile(path, "utf8")).resources["service:web"].pending).toBeUndefined();
    }
  });

  it("keeps a restart in the ledger until verification sees the service up", async () => {
    const crash = new Set<string>();
    const sim = simProvider(new Map(), { crashOnStart: crash });
    const first = await cycle([CONF, WEB], sim.provider);
    crash.add("tend-web");
    const failing = await cycle([{ ...CONF, content: "port = 9090\n" }, WEB], sim.provider, first.root);
    expect(failing.report.ok).toBe(false);
    const saved = JSON.parse(await readFile(join(first.root, "var/lib/tend/state.json"), "utf8"));
    expect(saved.resources["service:web"]).toMatchObject({ pending: ["restart"], pendingWhy: { restart: "file:conf changed" } });
    crash.clear();
    const resumed = await cycle([{ ...CONF, content: "port = 9090\n" }, WEB], sim.provider, first.root);
    expect(resumed.report.failures).toEqual([]);
    const after = JSON.parse(await readFile(join(first.root, "var/lib/tend/state.json"), "utf8"));
    expect(after.resources["service:web"].pending).toBeUndefined();
  });

  it("restarts a running service whose program was replaced on disk, unless restartOnUpgrade is false", async () => {
    const sim = simProvider();
    const web = { type: "service", name: "web", exec: "/opt/web/bin/web --port 8080", ...FAST };
    const first = await cycle([web], sim.provider);
    const pid = sim.units.get("tend-web")!.pid;
    // what the kernel shows for a process whose program was renamed over (a package upgrade)
    await mkdir(join(first.root, `proc/${pid}`), { recursive: true });
    await writeFile(join(first.root, `proc/${pid}/maps`), "55d0-55d2 r--p 0 08:01 1311 /opt/web/bin/web (deleted)\n55d2-55e0 r-xp 2000 08:01 1311 /opt/web/bin/web (deleted)\n");
    await mkdir(join(first.root, "opt/web/bin"), { recursive: true });
    await writeFile(join(first.root, "opt/web/bin/web"), "new build\n");
    const optedOut = await simSession([{ ...web, restartOnUpgrade: false }], [sim.provider], { root: first.root });
    expect((await optedOut.session.buildPlan()).plan.entries.every((e) => e.action === "none")).toBe(true);
    const stale = await cycle([web], sim.provider, first.root);
    expect(formatPlan(stale.plan)).toContain("  ! service:web drifted: running a replaced /opt/web/bin/web\n      then  restart\n");
    expect(stale.report.failures).toEqual([]);
    expect(stale.runner.lines).toContain("simctl restart -- tend-web");
    expect(sim.units.get("tend-web")!.pid).not.toBe(pid);
    const clean = await cycle([web], sim.provider, first.root);
    expect(clean.plan.entries.every((e) => e.action === "none")).toBe(true);
  });

  it("restarts a running service whose definition changed on disk after it started, telling the provider it must reload it", async () => {
    const { sim, provider, changes } = recordingChanges();
    const web = { type: "service", name: "web", exec: "/opt/web/bin/web", ...FAST };
    const first = await cycle([web], provider);
    const pid = sim.units.get("tend-web")!.pid;
    const boot = Math.floor(Date.now() / 1000) - 1000;
    const startedAt = (secondsAfterBoot: number) => `${pid} (web) S 1 ${pid} ${pid} 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 ${secondsAfterBoot * 100} 1000 10\n`;
    await mkdir(join(first.root, `proc/${pid}`), { recursive: true });
    await writeFile(join(first.root, "proc/stat"), `cpu  1 2 3\nbtime ${boot}\n`);
    // started after its unit was written: nothing to do
    await writeFile(join(first.root, `proc/${pid}/stat`), startedAt(1000 + 60));
    expect((await cycle([web], provider, first.root)).plan.entries.every((e) => e.action === "none")).toBe(true);
    // started 500 s before its unit was written (an apply killed between write and restart, a file restored)
    await writeFile(join(first.root, `proc/${pid}/stat`), startedAt(500));
    changes.length = 0;
    const stale = await cycle([web], provider, first.root);
    expect(formatPlan(stale.plan)).toContain("  ! service:web drifted: running an older definition than /etc/sim/tend-web.conf\n      then  restart\n");
    expect(stale.report.failures).toEqual([]);
    expect(changes).toEqual([{ ops: ["restart"], filesChanged: true }]);
    expect(stale.plan.entries[0]!.writes).toEqual([]);
    expect(sim.units.get("tend-web")!.pid).not.toBe(pid);
    expect((await cycle([web], provider, first.root)).plan.entries.every((e) => e.action === "none")).toBe(true);
    // a unit that refuses a manual restart only gets a warning: it takes the new definition when it next starts
    const later = sim.units.get("tend-web")!.pid;
    await mkdir(join(first.root, `proc/${later}`), { recursive: true });
    await writeFile(join(first.root, `proc/${later}/stat`), startedAt(500).replace(`${pid} (web)`, `${later} (web)`));
    const { session } = await simSession([web], [{ ...sim.provider, refusedOperations: (): Operation[] => ["start", "stop", "restart"] }], { root: first.root });
    const { plan } = await session.buildPlan();
    expect(plan.entries[0]!.action).toBe("none");
    expect(formatPlan(plan)).toContain("! service:web warning: running an older definition than /etc/sim/tend-web.conf; it refuses a manual restart, so tend leaves it running");
  });

  it("fails the plan for reloadOn on a service that cannot reload", async () => {
    const { session } = await simSession([CONF, { type: "service", name: "web", exec: "x", reloadOn: ["file:conf"] }], [simProvider().provider]);
    await expect(session.buildPlan()).rejects.toThrow("service:web lists resources in reloadOn, but it cannot reload on runit");
  });

  it("reloads, never restarts, when reloadOn matches", async () => {
    const sim = simProvider();
    const web = { type: "service", name: "web", exec: "x", reloadOn: ["file:conf"], reloadSignal: "HUP", ...FAST };
    const first = await cycle([CONF, web], sim.provider);
    const second = await cycle([{ ...CONF, content: "new\n" }, web], sim.provider, first.root);
    expect(second.runner.lines).toContain("simctl reload -- tend-web");
    expect(second.runner.lines.some((l) => l.includes("restart"))).toBe(false);
  });

  it("reloads a distro unit only while it runs: reloadOn never starts a stopped one", async () => {
    const sim = simProvider(new Map([["nginx", { enabled: true, running: false, pid: 0, canReload: true }]]));
    const nginx = { type: "service", name: "nginx", reloadOn: ["file:conf"], ...FAST };
    const first = await cycle([CONF, nginx], sim.provider);
    const second = await cycle([{ ...CONF, content: "new\n" }, nginx], sim.provider, first.root);
    expect(second.plan.entries.find((e) => e.key === "service:nginx")).toMatchObject({ ops: [], reasons: ["file:conf changed, reloadOn matched"] });
    expect(second.runner.lines.filter((l) => !l.startsWith("simctl status"))).toEqual([]);
    expect(sim.units.get("nginx")!.running).toBe(false);
    // running, it is reloaded (same process), not restarted
    sim.units.set("nginx", { enabled: true, running: true, pid: 41, canReload: true });
    const third = await cycle([{ ...CONF, content: "newer\n" }, nginx], sim.provider, first.root);
    expect(third.runner.lines).toContain("simctl reload -- nginx");
    expect(sim.units.get("nginx")!.pid).toBe(41);
  });

  it("removes a resource the spec dropped: stop, disable, delete exactly its files", async () => {
    const sim = simProvider();
    const first = await cycle([CONF, WEB], sim.provider);
    await writeFile(join(first.root, "etc/sim/keep.conf"), "not ours\n");
    const second = await cycle([CONF], sim.provider, first.root);
    expect(formatPlan(second.plan)).toContain("  - service:web\n");
    expect(second.runner.lines).toContain("simctl disable --now -- tend-web");
    expect(await readdir(join(first.root, "etc/sim"))).toEqual(["keep.conf"]);
    expect(sim.units.has("tend-web")).toBe(false);
  });

  it("never overwrites a file tend did not write, unless told to adopt it", async () => {
    const sim = simProvider();
    const { root } = await simSession([], []);
    await mkdir(join(root, "etc/web"), { recursive: true });
    await writeFile(join(root, "etc/web/web.conf"), "admin's\n");
    const { session } = await simSession([CONF], [sim.provider], { root });
    const { plan, state, assigned } = await session.buildPlan();
    expect(formatPlan(plan)).toContain("! file:conf conflict: /etc/web/web.conf exists and tend did not write it");
    await expect(applyPlan(session, plan, state, assigned)).rejects.toThrow("file:conf would write /etc/web/web.conf, which tend did not write");
    expect(await readFile(join(root, "etc/web/web.conf"), "utf8")).toBe("admin's\n");
    const adopted = await cycle([CONF], sim.provider, root, true);
    expect(adopted.report.ok).toBe(true);
    expect(await readFile(join(root, "etc/web/web.conf"), "utf8")).toBe("port = 8080\n");
    // the admin's copy is kept, readable by root alone
    const backups = join(root, "var/lib/tend/backups");
    const [stamp] = await readdir(backups);
    const kept = join(backups, stamp!, "file/etc/web/web.conf");
    expect(await readFile(kept, "utf8")).toBe("admin's\n");
    expect((await stat(kept)).mode & 0o777).toBe(0o600);
  });

  // s6's dependencies.d, rendered only while a service has `after`: the folder was deleted before its file, so kept.
  it("deletes a folder a resource no longer renders after the files in it, so none is left behind", async () => {
    const sim = simProvider();
    const folder = (resource: { env?: Record<string, string> }) =>
      resource.env?.DEPS ? [{ store: "directory", path: "/etc/sim/tend-web.d", content: "", mode: 0o755 }, { path: "/etc/sim/tend-web.d/db", content: "", mode: 0o644 }] : [];
    const provider = { ...sim.provider, render: (resource: never, ctx: never) => [...sim.provider.render(resource, ctx), ...folder(resource)] } as ProviderDefinition;
    const web = { type: "service", name: "web", exec: "/opt/web", ...FAST };
    const first = await cycle([{ ...web, env: { DEPS: "1" } }], provider);
    expect(await readdir(join(first.root, "etc/sim/tend-web.d"))).toEqual(["db"]);
    const second = await cycle([web], provider, first.root);
    expect(second.report.failures).toEqual([]);
    expect(await readdir(join(first.root, "etc/sim"))).toEqual(["tend-web.conf"]);
  });

  it("says a folder it was to delete is kept when it holds a file tend did not write, and the folder is no longer recorded", async () => {
    const sim = simProvider();
    const folder = (resource: { env?: Record<string, string> }) => (resource.env?.DEPS ? [{ store: "directory", path: "/etc/sim/tend-web.d", content: "", mode: 0o755 }] : []);
    const provider = { ...sim.provider, render: (resource: never, ctx: never) => [...sim.provider.render(resource, ctx), ...folder(resource)] } as ProviderDefinition;
    const web = { type: "service", name: "web", exec: "/opt/web", ...FAST };
    const first = await cycle([{ ...web, env: { DEPS: "1" } }], provider);
    await writeFile(join(first.root, "etc/sim/tend-web.d/admin.conf"), "mine\n");
    const dropped = await cycle([web], provider, first.root);
    expect(dropped.report.lines).toContain("service:web: kept /etc/sim/tend-web.d/, which holds files tend did not write; it is no longer tend's");
    expect(dropped.report.lines.some((line) => line.startsWith("service:web: deleted /etc/sim/tend-web.d"))).toBe(false);
    expect(await readFile(join(first.root, "etc/sim/tend-web.d/admin.conf"), "utf8")).toBe("mine\n");
    const saved = JSON.parse(await readFile(join(first.root, "var/lib/tend/state.json"), "utf8"));
    expect(saved.resources["service:web"].artifacts.map((a: { path: string }) => a.path)).toEqual(["/etc/sim/tend-web.conf"]);
    // And when the whole resource goes, with the admin's file in its folder again.
    const again = await cycle([{ ...web, env: { DEPS: "1" } }], provider, first.root);
    expect(again.report.failures).toEqual([]);
    const removed = await cycle([], provider, first.root);
    expect(removed.report.lines).toContain("service:web: kept /etc/sim/tend-web.d/, which holds files tend did not write; it is no longer tend's");
    expect(removed.report.lines).toContain("service:web: removed");
    expect(await readdir(join(first.root, "etc/sim"))).toEqual(["tend-web.d"]);
  });

  it("rewrites what it puts at a path for a moment (an artifact's interim content) when a killed apply left it, and still refuses anything else", async () => {
    const sim = simProvider();
    const provider = { ...sim.provider, render: (resource: never, ctx: never) => sim.provider.render(resource, ctx).map((a) => ({ ...a, interim: "# held back\n" })) };
    const web = { type: "service", name: "web", exec: "/opt/web --port 8080", ...FAST };
    for (const [found, refused] of [["# held back\n", false], ["# held back, and the admin's line\n", true]] as const) {
      const { root } = await simSession([], []);
      await mkdir(join(root, "etc/sim"), { recursive: true });
      await writeFile(join(root, "etc/sim/tend-web.conf"), found);
      const { session } = await simSession([web], [provider], { root });
      const { plan } = await session.buildPlan();
      expect(formatPlan(plan).includes("conflict: /etc/sim/tend-web.conf exists and tend did not write it")).toBe(refused);
      if (refused) continue;
      const applied = await cycle([web], provider, root);
      expect(applied.report.ok).toBe(true);
      expect(await readFile(join(root, "etc/sim/tend-web.conf"), "utf8")).toContain("/opt/web --port 8080");
      // tend's own: nothing kept of it, as of a file the admin wrote
      expect(await readdir(join(root, "var/lib/tend/backups")).catch(() => [])).toEqual([]);
    }
  });

  it("fails verification for a service that dies, with its logs, and stops only its dependents", async () => {
    const sim = simProvider(new Map<string, SimUnit>(), { crashOnStart: new Set(["tend-bad"]) });
    const resources = [
      { type: "service", name: "bad", exec: "x", ...FAST },
      { type: "service", name: "good", exec: "y", ...FAST },
    ];
    const { report } = await cycle(resources, sim.provider);
    expect(report.ok).toBe(false);
    const failure = report.failures[0]!;
    expect(failure.message).toMatch(/^service:bad did not verify: it did not come up/);
    expect(failure.hint).toContain("tend-bad: exited 1");
    expect(report.lines).toContain("service:good: verified");
  });

  it("does not apply a resource whose dependency failed, but applies independent ones", async () => {
    const sim = simProvider();
    const { session, runner } = await simSession(
      [
        { type: "service", name: "db", exec: "x", ...FAST },
        { type: "service", name: "web", exec: "y", after: ["db"], ...FAST },
        { type: "service", name: "other", exec: "z", ...FAST },
      ],
      [sim.provider],
    );
    runner.failOn = (line) => (line.startsWith("simctl enable -- tend-db") ? { exitCode: 1, stderr: "boom" } : undefined);
    const { plan, state, assigned } = await session.buildPlan();
    const report = await applyPlan(session, plan, state, assigned);
    expect(report.failures.map((f) => f.location.resource)).toEqual(["service:db", "service:web"]);
    expect(report.failures[1]!.message).toBe("service:web was not applied because service:db failed");
    expect(sim.units.get("tend-other")?.running).toBe(true);
  });

  it("honours desired state: enabled but stopped", async () => {
    const sim = simProvider();
    const first = await cycle([{ type: "service", name: "web", exec: "x", desired: { state: "stopped", enabled: true } }], sim.provider);
    expect(first.runner.lines).toContain("simctl enable -- tend-web");
    expect(first.runner.lines.some((l) => l.includes("start"))).toBe(false);
    sim.units.get("tend-web")!.running = true;
    const second = await cycle([{ type: "service", name: "web", exec: "x", desired: { state: "stopped", enabled: true } }], sim.provider, first.root);
    expect(formatPlan(second.plan)).toContain("      reason  running, want stopped\n");
    expect(sim.units.get("tend-web")!.running).toBe(false);
  });

  it("enables a distro unit and never starts it; a missing one fails at apply naming requires", async () => {
    const sim = simProvider(new Map([["sshd", { enabled: false, running: false, pid: 0 }]]));
    const ok = await cycle([{ type: "service", name: "sshd" }], sim.provider);
    expect(formatPlan(ok.plan)).toContain("+ service:sshd  enable the distro unit");
    expect(ok.runner.lines).toEqual(["simctl status sshd", "simctl enable -- sshd", "simctl status sshd"]);
    // Wanted disabled, the plan does not say it enables it.
    const kept = await cycle([{ type: "service", name: "sshd", desired: { state: "stopped", enabled: false } }], simProvider(new Map([["sshd", { enabled: false, running: false, pid: 0 }]])).provider);
    expect(formatPlan(kept.plan)).toContain("+ service:sshd  the distro unit, kept disabled");
    expect(kept.runner.lines.some((line) => line.includes("enable"))).toBe(false);
    const missing = await cycle([{ type: "service", name: "nginx" }], simProvider().provider);
    expect(missing.report.failures[0]!.message).toContain("service:nginx has no exec, but the init knows no unit `nginx`");
    expect(missing.report.failures[0]!.hint).toContain("missing `requires`");
  });

  it("leaves out the operations a provider refuses from what it observed, and does not verify a state it could not reach", async () => {
    const sim = simProvider(new Map([["sshd", { enabled: false, running: false, pid: 0 }]]));
    const refusing: ProviderDefinition = {
      ...sim.provider,
      async observe(resources, ctx) {
        const found = await sim.provider.observe(resources, ctx);
        for (const observation of found.values()) observation.details = { refusesManualStart: true };
        return found;
      },
      refusedOperations: (_resource, observation) => (observation?.details?.refusesManualStart === true ? ["start", "stop", "restart"] : []),
    };
    const result = await cycle([{ type: "service", name: "sshd", desired: { state: "running", enabled: true } }], refusing);
    expect(result.plan.entries[0]!.ops).toEqual(["enable"]);
    expect(result.runner.lines.some((l) => l.includes("start"))).toBe(false);
    expect(result.report.failures).toEqual([]);
  });

  it("enables a distro unit that a file in the same apply provides", async () => {
    const sim = simProvider();
    const result = await cycle(
      [
        { type: "file", name: "nginx-unit", path: "/lib/sim/nginx", content: "unit\n" },
        { type: "service", name: "nginx", requires: ["file:nginx-unit"] },
      ],
      sim.provider,
    );
    expect(result.report.failures).toEqual([]);
    expect(sim.units.get("nginx")?.enabled).toBe(true);
  });

  it("under --root writes and enables, starts and verifies nothing", async () => {
    const sim = simProvider();
    const { session, runner } = await simSession([WEB, CONF], [sim.provider], { offline: true });
    const { plan, state, assigned } = await session.buildPlan();
    const report = await applyPlan(session, plan, state, assigned);
    expect(report.ok).toBe(true);
    expect(sim.units.get("tend-web")).toMatchObject({ enabled: true, running: false });
    expect(runner.lines).toEqual(["simctl status tend-web", "simctl reload-config", "simctl enable -- tend-web"]);
    const again = await session.buildPlan();
    expect(again.plan.entries.every((e) => e.action === "none")).toBe(true);
  });

  it("refuses to write through a symlink such as a /dev/null mask", async () => {
    const { symlink } = await import("node:fs/promises");
    const sim = simProvider();
    const { root } = await simSession([], []);
    await mkdir(join(root, "etc/sim"), { recursive: true });
    await symlink("/dev/null", join(root, "etc/sim/tend-web.conf"));
    const result = await cycle([{ type: "service", name: "web", exec: "x" }], sim.provider, root, true);
    expect(result.report.ok).toBe(false);
    expect(TendError.isInstance(result.report.failures[0])).toBe(true);
    expect(result.report.failures[0]!.message).toContain("symlink to /dev/null");
  });
});

describe("apply, when tend lost track of its files", () => {
  it("lists files carrying its header that no state records as orphans; --adopt takes them back, a later removal deletes them", async () => {
    const sim = simProvider();
    const first = await cycle([CONF, WEB], sim.provider);
    await rm(join(first.root, "var/lib/tend/state.json"));
    const { session } = await simSession([CONF, WEB], [sim.provider], { root: first.root });
    const { plan, state, assigned } = await session.buildPlan();
    const text = formatPlan(plan);
    expect(text).toContain("! service:web orphan: /etc/sim/tend-web.conf carries tend's header, but no state records it; apply --adopt takes it back");
    expect(text).toContain("! file:conf conflict: /etc/web/web.conf exists and tend did not write it");
    await expect(applyPlan(session, plan, state, assigned)).rejects.toThrow("which carries tend's header but which no state records");
    const adopted = await cycle([CONF, WEB], sim.provider, first.root, true);
    expect(adopted.report.failures).toEqual([]);
    const removed = await cycle([], sim.provider, first.root);
    expect(removed.report.failures).toEqual([]);
    expect(await readdir(join(first.root, "etc/sim"))).toEqual([]);
    expect(await readdir(join(first.root, "etc/web"))).toEqual([]);
  });

  it("reports an orphan of a resource the spec no longer declares", async () => {
    const sim = simProvider();
    const first = await cycle([{ type: "service", name: "web", exec: "x", ...FAST }], sim.provider);
    await rm(join(first.root, "var/lib/tend/state.json"));
    const { session } = await simSession([], [sim.provider], { root: first.root });
    const { plan } = await session.buildPlan();
    expect(plan.warnings).toEqual([expect.stringContaining("orphan: /etc/sim/tend-web.conf carries tend's header, but no state records it and the spec does not declare it")]);
  });

  it("records, without writing, a file an interrupted apply wrote but never confirmed", async () => {
    const sim = simProvider();
    const { root } = await simSession([], []);
    await mkdir(join(root, "etc/web"), { recursive: true });
    await writeFile(join(root, "etc/web/web.conf"), CONF.content);
    await mkdir(join(root, "var/lib/tend"), { recursive: true });
    const intent = { resource: CONF, provider: "core", artifacts: [{ store: "file", path: CONF.path, hash: null, writing: contentHash(CONF.content) }] };
    await writeFile(join(root, "var/lib/tend/state.journal"), `${JSON.stringify({ t: "begin", serial: 0 })}\n${JSON.stringify({ t: "set", key: "file:conf", record: intent })}\n`);
    const { session } = await simSession([CONF], [sim.provider], { root });
    const { plan, state, assigned } = await session.buildPlan();
    expect(formatPlan(plan)).toContain("~ file:conf  record its files (an earlier apply stopped before it could)");
    const report = await applyPlan(session, plan, state, assigned);
    expect(report.lines).toEqual(["file:conf: recorded the files an earlier apply wrote before it stopped"]);
    const saved = JSON.parse(await readFile(join(root, "var/lib/tend/state.json"), "utf8"));
    expect(saved.resources["file:conf"].artifacts).toEqual([{ store: "file", path: CONF.path, hash: contentHash(CONF.content) }]);
    expect(await readdir(join(root, "var/lib/tend"))).toEqual(["state.json"]);
  });

  it("shows in the plan what apply will refuse: a /dev/null mask at the target", async () => {
    const { symlink } = await import("node:fs/promises");
    const sim = simProvider();
    const { root } = await simSession([], []);
    await mkdir(join(root, "etc/sim"), { recursive: true });
    await symlink("/dev/null", join(root, "etc/sim/tend-web.conf"));
    const { session } = await simSession([WEB, CONF], [sim.provider], { root });
    const { plan } = await session.buildPlan();
    expect(formatPlan(plan)).toContain("! service:web refused: /etc/sim/tend-web.conf is a symlink to /dev/null (a mask); apply never writes through or over it");
    expect(formatPlan(plan)).not.toContain("+ service:web");
  });

  it("refuses to delete a file tend wrote and an admin edited since, unless --adopt, which keeps the edit", async () => {
    const sim = simProvider();
    const first = await cycle([CONF], sim.provider);
    const conf = join(first.root, "etc/web/web.conf");
    await writeFile(conf, "port = 9090 # mine\n");
    const { session } = await simSession([], [sim.provider], { root: first.root });
    const { plan, state, assigned } = await session.buildPlan();
    expect(formatPlan(plan)).toContain("! file:conf conflict: /etc/web/web.conf was edited since tend wrote it; apply deletes it only with --adopt, keeping a backup");
    await expect(applyPlan(session, plan, state, assigned)).rejects.toThrow("file:conf would delete /etc/web/web.conf, which was edited since tend wrote it");
    expect(await readFile(conf, "utf8")).toBe("port = 9090 # mine\n");
    const adopted = await cycle([], sim.provider, first.root, true);
    expect(adopted.report.failures).toEqual([]);
    expect(adopted.report.lines.join("\n")).toContain("deleted /etc/web/web.conf (it was edited; the edited copy is kept under backups/)");
    await expect(stat(conf)).rejects.toThrow("ENOENT");
    const [backups] = await readdir(join(first.root, "var/lib/tend/backups"));
    expect(await readFile(join(first.root, "var/lib/tend/backups", backups!, "file/etc/web/web.conf"), "utf8")).toBe("port = 9090 # mine\n");
  });

  it("refuses to delete an edited file a resource no longer renders to (a file moved), and deletes an unedited one", async () => {
    const sim = simProvider();
    const first = await cycle([CONF], sim.provider);
    const moved = { ...CONF, path: "/etc/web/moved.conf" };
    await writeFile(join(first.root, "etc/web/web.conf"), "port = 9090 # mine\n");
    const refused = await simSession([moved], [sim.provider], { root: first.root });
    expect(formatPlan((await refused.session.buildPlan()).plan)).toContain("! file:conf conflict: /etc/web/web.conf was edited since tend wrote it");
    await writeFile(join(first.root, "etc/web/web.conf"), CONF.content);
    const applied = await cycle([moved], sim.provider, first.root);
    expect(applied.report.failures).toEqual([]);
    expect(await readdir(join(first.root, "etc/web"))).toEqual(["moved.conf"]);
  });

  it("leaves a file edited after the plan read it as it is, failing its resource, and keeps the edit at the next apply", async () => {
    const sim = simProvider();
    const first = await cycle([CONF], sim.provider);
    const conf = join(first.root, "etc/web/web.conf");
    const { session } = await simSession([{ ...CONF, content: "port = 9090\n" }], [sim.provider], { root: first.root });
    const { plan, state, assigned } = await session.buildPlan();
    await writeFile(conf, "port = 7777 # mine\n");
    const report = await applyPlan(session, plan, state, assigned);
    expect(report.failures.map((f) => [f.location.resource, f.message])).toEqual([["file:conf", "did not overwrite /etc/web/web.conf: it changed after this apply read it"]]);
    expect(await readFile(conf, "utf8")).toBe("port = 7777 # mine\n");
    const again = await cycle([{ ...CONF, content: "port = 9090\n" }], sim.provider, first.root);
    expect(again.report.lines.join("\n")).toContain("wrote /etc/web/web.conf (it was edited; the edited copy is kept under backups/)");
    const [stamp] = await readdir(join(first.root, "var/lib/tend/backups"));
    expect(await readFile(join(first.root, "var/lib/tend/backups", stamp!, "file/etc/web/web.conf"), "utf8")).toBe("port = 7777 # mine\n");
  });

  it("writes a path that a resource the spec dropped held, once this apply deleted it (a file passed to another resource)", async () => {
    const sim = simProvider();
    const first = await cycle([CONF], sim.provider);
    const renamed = { ...CONF, name: "web-conf", content: "port = 9090\n" };
    const moved = await cycle([renamed], sim.provider, first.root, true);
    expect(moved.report.failures).toEqual([]);
    expect(await readFile(join(first.root, "etc/web/web.conf"), "utf8")).toBe("port = 9090\n");
  });

  it("refuses an empty file where the init reads one as a mask, even with --adopt, and adopts it where it does not", async () => {
    const sim = simProvider();
    const masking: ProviderDefinition = { ...sim.provider, render: (resource, ctx) => sim.provider.render(resource, ctx).map((a) => ({ ...a, masksWhenEmpty: true })) };
    const { root } = await simSession([], []);
    await mkdir(join(root, "etc/sim"), { recursive: true });
    await writeFile(join(root, "etc/sim/tend-web.conf"), "");
    const masked = await cycle([{ type: "service", name: "web", exec: "x" }], masking, root, true);
    expect(formatPlan(masked.plan)).toContain("! service:web refused: /etc/sim/tend-web.conf is an empty file, which the init reads as a mask; apply never writes through or over it");
    expect(masked.report.failures[0]!.message).toContain("an empty file, which the init reads as a mask");
    expect(await readFile(join(root, "etc/sim/tend-web.conf"), "utf8")).toBe("");
    expect(masked.runner.lines.filter((line) => !line.startsWith("simctl status"))).toEqual([]);
    // An empty file that masks nothing is only a file tend did not write: --adopt replaces it.
    const adopted = await cycle([{ type: "service", name: "web", exec: "x" }], sim.provider, root, true);
    expect(adopted.report.failures).toEqual([]);
    expect(await readFile(join(root, "etc/sim/tend-web.conf"), "utf8")).toContain('"exec":"x"');
  });
});
