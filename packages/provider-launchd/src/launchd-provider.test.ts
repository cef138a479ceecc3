import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyPlan, checkCapabilities, formatPlan, ProviderRegistry, ServiceSchema, Session, validateSpec, type Resource } from "@tend/core";
import { describeConformance, RecordingRunner, renderContext, writeHostTree } from "@tend/testkit";
import { fixture, withJobs } from "./__fixtures__/domain-prints.js";
import { describe, expect, it } from "vitest";
import provider from "./index.js";

const service = (fields: Record<string, unknown>) => ServiceSchema.parse({ type: "service", ...fields });
const capabilityErrors = (resource: Resource) => checkCapabilities(resource, provider, { init: "launchd", packageName: "@tend/provider-launchd", own: true }).map((e) => e.message);

describeConformance({
  provider,
  packageJson: new URL("../package.json", import.meta.url),
  init: "launchd",
  // LaunchDaemons belong to root:wheel; the image root's group database says who wheel is.
  prepareRoot: (root) => writeHostTree(root, { "etc/group": "wheel:*:0:root\n", "etc/passwd": "root:*:0:0::/var/root:/bin/sh\n" }),
});

describe("the launchd provider's declared capabilities, through the core's capability check", () => {
  it("a service without exec gets the seed's error", () => {
    expect(capabilityErrors(service({ name: "gdm" }))).toEqual(["service:gdm has no exec, and enabling a unit the system ships is not supported on launchd"]);
  });

  it("systemd = {...} gets the seed's error", () => {
    expect(capabilityErrors(service({ name: "web", exec: "/bin/web", systemd: { MemoryMax: "512M" } }))).toEqual([
      "service:web sets `systemd` (MemoryMax), which only systemd supports, and this host uses launchd",
    ]);
  });

  it("user services, launchd = {...}, reloadSignal and `*.target` in after are accepted (after is ignored)", () => {
    expect(
      capabilityErrors(
        service({ name: "bar", exec: "waybar", user: true, after: ["graphical-session.target", "network"], launchd: { ProcessType: "Interactive" }, reloadSignal: "HUP" }),
      ),
    ).toEqual([]);
  });

  it("displayManager is not something launchd has", () => {
    expect(capabilityErrors(service({ name: "gdm", exec: "/bin/gdm", displayManager: true }))).toHaveLength(1);
  });
});

/** A session on a launchd host over a temp folder standing for `/`: applying into an image root, or live through `runner`. */
async function session(root: string, resources: unknown[], runner?: RecordingRunner) {
  const registry = new ProviderRegistry([]);
  registry.register(provider);
  return Session.fromParts({
    host: { facts: { name: "testhost", init: "launchd", os: "darwin", arch: "arm64", user: "root", home: "/var/root" }, scope: { kind: "system" } },
    spec: { file: join(root, "tend.yaml"), resources: validateSpec(resources) as Resource[], providers: [] },
    registry,
    root,
    offline: runner === undefined,
    runner: runner ?? new RecordingRunner(),
  });
}

describe("the plists tend wrote and lost track of", () => {
  it("names LaunchDaemons (system) and the user's LaunchAgents, `tend.*`, as its own", () => {
    expect(provider.managedFolders?.(renderContext({ init: "launchd" }))).toEqual([{ dir: "/Library/LaunchDaemons", prefix: "tend." }]);
    expect(provider.managedFolders?.(renderContext({ init: "launchd", scope: "user" }))).toEqual([{ dir: "/home/alice/Library/LaunchAgents", prefix: "tend." }]);
  });

  it("after a lost state, a plist carrying the header is an orphan (apply --adopt takes it back), not an admin's file in the way", async () => {
    const root = await mkdtemp(join(tmpdir(), "tend-launchd-"));
    await writeHostTree(root, { "etc/group": "wheel:*:0:root\n", "etc/passwd": "root:*:0:0::/var/root:/bin/sh\n" });
    const web = { type: "service", name: "web", exec: "/opt/web/bin/server", restart: "always" };
    const first = await session(root, [web]);
    const built = await first.buildPlan();
    expect((await applyPlan(first, built.plan, built.state, built.assigned)).failures).toEqual([]);
    expect((await readFile(join(root, "Library/LaunchDaemons/tend.web.plist"), "utf8")).split("\n")[2]).toBe("<!-- Managed by tend. Edits are overwritten on the next apply. -->");

    await rm(join(root, "var/lib/tend/state.json"));
    const declared = (await (await session(root, [web])).buildPlan()).plan;
    expect(declared.entries[0]).toMatchObject({ orphans: ["/Library/LaunchDaemons/tend.web.plist"], conflicts: [] });
    expect(formatPlan(declared)).toContain("orphan: /Library/LaunchDaemons/tend.web.plist carries tend's header");
    const forgotten = (await (await session(root, [])).buildPlan()).plan;
    expect(forgotten.warnings).toEqual([expect.stringContaining("orphan: /Library/LaunchDaemons/tend.web.plist carries tend's header, but no state records it")]);
    const adopting = await session(root, [web]);
    const adopt = await adopting.buildPlan({ adopt: true });
    expect((await applyPlan(adopting, adopt.plan, adopt.state, adopt.assigned, { adopt: true })).failures).toEqual([]);
    expect((await (await session(root, [web])).buildPlan()).plan.entries.map((e) => e.action)).toEqual(["none"]);

    // The admin's own plist at a tend path, without the header, stays a conflict.
    await rm(join(root, "var/lib/tend/state.json"));
    await writeFile(join(root, "Library/LaunchDaemons/tend.web.plist"), (await readFile(join(root, "Library/LaunchDaemons/tend.web.plist"), "utf8")).replace(/<!--.*-->\n/, ""));
    const admins = (await (await session(root, [web])).buildPlan()).plan;
    expect(admins.entries[0]).toMatchObject({ orphans: [], conflicts: ["/Library/LaunchDaemons/tend.web.plist"] });
  });
});

describe("plan warnings from the launchd hatch", () => {
  it("plan shows AbandonProcessGroup and a key replacing a generated one, naming the hatch key and the field", async () => {
    const root = await mkdtemp(join(tmpdir(), "tend-launchd-"));
    await writeHostTree(root, { "etc/group": "wheel:*:0:root\n", "etc/passwd": "root:*:0:0::/var/root:/bin/sh\n" });
    const web = { type: "service", name: "web", exec: "/opt/web | /opt/log", restart: "always", env: { A: "1" }, launchd: { AbandonProcessGroup: true, EnvironmentVariables: { B: "2" } } };
    const text = formatPlan((await (await session(root, [web])).buildPlan()).plan);
    expect(text).toContain("`launchd.AbandonProcessGroup` = true stops launchd from ending the job's process group");
    expect(text).toContain("`launchd.EnvironmentVariables` replaces the EnvironmentVariables tend generated from `env`");
  });
});

describe("a fresh apply through the core, on a live host (issue 16)", () => {
  it("costs the same launchctl calls for 60 services as for 3: observe, one bootstrap, the probes of one settle window, one last observe", async () => {
    const counts: number[] = [];
    for (const size of [3, 60]) {
      const root = await mkdtemp(join(tmpdir(), "tend-launchd-"));
      await writeHostTree(root, { "etc/group": "wheel:*:0:root\n", "etc/passwd": "root:*:0:0::/var/root:/bin/sh\n" });
      const services = Array.from({ length: size }, (_, i) => ({ type: "service", name: `s${i}`, exec: `/opt/s/bin/s${i}`, restart: "always", verify: { settle: 0.01 } }));
      let loaded = false;
      const printed = withJobs(fixture("print-system-domain.txt"), services.map((s, i) => ({ pid: 500 + i, status: "-", label: `tend.${s.name}` })));
      const runner = new RecordingRunner()
        .on("launchctl print system", () => ({ stdout: loaded ? printed : fixture("print-system-domain.txt") }))
        .on("launchctl bootstrap system", () => {
          loaded = true;
          return {};
        });
      const live = await session(root, services, runner);
      const { plan, state, assigned } = await live.buildPlan();
      const report = await applyPlan(live, plan, state, assigned);
      expect(report.failures.map((f) => f.message)).toEqual([]);
      expect(runner.lines.map((line) => line.split(" ").slice(0, 3).join(" "))).toEqual([
        "launchctl print system", // observe
        "launchctl print system", // the wave: which labels are loaded, which disabled
        "launchctl bootstrap system", // every plist at once
        "launchctl print system", // verification: up
        "launchctl print system", // … and still up with the same pid after the settle window
        "launchctl print system", // the state asked for is the state launchd reports
      ]);
      expect(report.lines.filter((line) => line.endsWith(": verified"))).toHaveLength(size);
      counts.push(runner.lines.length);
    }
    expect(counts[1]).toBe(counts[0]);
  });
});
