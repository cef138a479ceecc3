import { mkdirSync } from "node:fs";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ServiceSchema, type Service } from "@tend/core";
import { RecordingRunner, applyContext } from "@tend/testkit";
import { compileAndSwitch } from "./compile-and-switch.js";
import { observeServices } from "./observe-services.js";
import { renderLongrun } from "./render-longrun.js";

const service = (fields: Omit<Service, "type">) => ServiceSchema.parse({ type: "service", ...fields });
const fixture = (name: string) => readFile(new URL(`./__fixtures__/observe-live/${name}`, import.meta.url), "utf8");
/** The captures ran on a private live dir; the provider reads the host's. */
const asHostLive = (text: string) => text.replaceAll("/tmp/s6rc-obs/live", "/run/s6-rc");

const OUTSIDE_BUNDLE = "it is not in the tend bundle of /etc/s6/db/current, the database boot uses";
const declared = ["web", "db", "worker", "off", "new"].map((name) => service({ name, exec: `/usr/bin/${name}` }));

async function liveHost(runner: RecordingRunner) {
  const ctx = await applyContext({ init: "s6", runner });
  await mkdir(join(ctx.rootDir, "run/s6-rc"), { recursive: true });
  await mkdir(join(ctx.rootDir, "etc/s6/db/tend-g1-a"), { recursive: true });
  await symlink("tend-g1-a", join(ctx.rootDir, "etc/s6/db/current"));
  return ctx;
}

describe("observeServices on a live host", () => {
  it("reads everything with four commands and reports exists, state and enabled", async () => {
    const runner = new RecordingRunner()
      .on("s6-rc -b -l /run/s6-rc -a list", { stdout: await fixture("s6-rc-a-list.txt") })
      .on("s6-rc-db -b -l /run/s6-rc list services", { stdout: await fixture("s6-rc-db-list-services.txt") })
      .on((argv) => argv.join(" ").endsWith("/etc/s6/db/current contents tend"), { stdout: await fixture("s6-rc-db-contents-tend.txt") })
      .on("/bin/sh -c", { stdout: asHostLive(await fixture("svstat-batch.txt")) });
    const ctx = await liveHost(runner);
    const observed = await observeServices(declared, ctx);

    expect(runner.lines).toEqual([
      `s6-rc-db -b -c ${ctx.rootDir}/etc/s6/db/current contents tend`,
      "s6-rc -b -l /run/s6-rc -a list",
      "s6-rc-db -b -l /run/s6-rc list services",
      expect.stringMatching(/^\/bin\/sh -c .* sh \/run\/s6-rc\/servicedirs\/tend-web \/run\/s6-rc\/servicedirs\/tend-db \/run\/s6-rc\/servicedirs\/tend-worker \/run\/s6-rc\/servicedirs\/tend-off$/),
    ]);
    expect(observed.get("service:web")).toMatchObject({ exists: true, state: "running", enabled: true, details: { "s6-rc": "up", pid: 19495 } });
    // s6-rc still lists it up, but its finish exited 125: s6-supervise no longer wants it up
    expect(observed.get("service:db")).toMatchObject({ exists: true, state: "stopped", enabled: true, details: { "s6-rc": "up" } });
    expect(observed.get("service:worker")).toMatchObject({ exists: true, state: "stopped", enabled: true, details: { "s6-rc": "down" } });
    expect(observed.get("service:off")).toMatchObject({ exists: true, state: "running", enabled: false });
    expect(observed.get("service:new")).toEqual({ exists: false, state: "stopped", enabled: false });
    // boot truth: running now, but outside the bundle boot brings up
    expect(observed.get("service:web")?.atBoot).toEqual({ starts: true });
    expect(observed.get("service:off")?.atBoot).toEqual({ starts: false, why: OUTSIDE_BUNDLE });
    // a host whose default bundle (what its boot brings up) leaves tend out: nothing of tend starts
    await mkdir(join(ctx.rootDir, "etc/s6/sv/default/contents.d"), { recursive: true });
    await writeFile(join(ctx.rootDir, "etc/s6/sv/default/type"), "bundle\n");
    expect((await observeServices(declared, ctx)).get("service:web")?.atBoot).toEqual({ starts: false, why: "the default bundle, which boot brings up, does not contain the tend bundle" });
    await writeFile(join(ctx.rootDir, "etc/s6/sv/default/contents.d/tend"), "");
    expect((await observeServices(declared, ctx)).get("service:web")?.atBoot).toEqual({ starts: true });
  });

  it("treats a database without a tend bundle (exit 3) as nothing enabled", async () => {
    const runner = new RecordingRunner()
      .on((argv) => argv.includes("contents"), { exitCode: 3, stderr: "s6-rc-db: fatal: tend is not a valid identifier in /etc/s6/db/current\n" })
      .on("s6-rc-db -b -l /run/s6-rc list services", { stdout: "s6rc-oneshot-runner\ns6rc-fdholder\n" });
    const ctx = await liveHost(runner);
    const observed = await observeServices([service({ name: "web", exec: "/bin/web" })], ctx);
    expect(observed.get("service:web")).toEqual({ exists: false, state: "stopped", enabled: false });
    expect(runner.lines).not.toContainEqual(expect.stringMatching(/^\/bin\/sh/));
  });
});

describe("observeServices offline (--root)", () => {
  /** An image root where tend wrote `services` and compiled them (s6-rc-compile makes the database folder, as the real one does). */
  async function compiledRoot(...services: Service[]) {
    const runner = new RecordingRunner().on("s6-rc-compile", (command) => {
      mkdirSync(command.argv[1]!);
      return {};
    });
    const ctx = await applyContext({ init: "s6", runner, offline: true });
    await writeSources(ctx, ...services);
    await compileAndSwitch(services.map((s) => ({ key: `service:${s.name}`, action: "add", resource: s, ops: ["enable"], filesChanged: true, reasons: [] })), ["/etc/s6/sv"], ctx);
    runner.clear();
    return ctx;
  }
  async function writeSources(ctx: Awaited<ReturnType<typeof applyContext>>, ...services: Service[]) {
    for (const artifact of services.flatMap((s) => renderLongrun(s))) {
      if (artifact.store === "directory") await ctx.files.mkdir(artifact.path, { mode: 0o755 });
      else await ctx.files.writeFile(artifact.path, artifact.content, { mode: artifact.mode ?? 0o644 });
    }
  }
  const off = service({ name: "off", exec: "/usr/bin/off", desired: { state: "running", enabled: false } });

  it("reads a database tend compiled from the note beside it: no s6-rc tool runs", async () => {
    const ctx = await compiledRoot(declared[0]!, off);
    const observed = await observeServices([declared[0]!, off, declared[4]!], ctx);
    expect(ctx.runner.lines).toEqual([]);
    expect(observed.get("service:web")).toEqual({ exists: true, enabled: true, atBoot: { starts: true } });
    expect(observed.get("service:off")).toEqual({ exists: true, enabled: false, atBoot: { starts: false, why: OUTSIDE_BUNDLE } });
    expect(observed.get("service:new")).toEqual({ exists: false, enabled: false });
  });

  it("reports a definition on disk that the database boot uses does not hold yet as drift (an apply stopped before its compile)", async () => {
    const ctx = await compiledRoot(declared[0]!);
    const changed = service({ name: "web", exec: "/usr/bin/web --changed" });
    await writeSources(ctx, changed);
    const observed = await observeServices([changed], ctx);
    expect(observed.get("service:web")).toEqual({
      exists: true,
      enabled: true,
      atBoot: { starts: true },
      drift: ["/etc/s6/db/tend-g1-a, the database boot uses, holds an older definition of tend-web than /etc/s6/sv/tend-web: apply compiles it again"],
    });
    // A definition that differs on disk too is rewritten by apply, which compiles after it: no drift of this kind.
    await writeFile(join(ctx.rootDir, "etc/s6/sv/tend-web/run"), "#!/bin/sh\nexec /usr/bin/edited\n");
    expect((await observeServices([changed], ctx)).get("service:web")).toEqual({ exists: true, enabled: true, atBoot: { starts: true } });
    expect((await observeServices([declared[0]!], ctx)).get("service:web")).toEqual({ exists: true, enabled: true, atBoot: { starts: true } });
  });

  it("treats a current link to a missing database as nothing compiled", async () => {
    const ctx = await applyContext({ init: "s6", offline: true });
    await mkdir(join(ctx.rootDir, "etc/s6/db"), { recursive: true });
    await symlink("tend-g4-a", join(ctx.rootDir, "etc/s6/db/current"));
    expect((await observeServices([declared[0]!], ctx)).get("service:web")).toEqual({ exists: false, enabled: false });
    expect(ctx.runner.lines).toEqual([]);
  });

  it("reads a compiled current database tend did not compile with s6-rc-db, and leaves state unobservable", async () => {
    const runner = new RecordingRunner()
      .on((argv) => argv.includes("contents"), { stdout: "tend-web\n" })
      .on((argv) => argv.includes("list"), { stdout: "s6rc-oneshot-runner\ns6rc-fdholder\ntend-web\ntend-off\n" });
    const ctx = await applyContext({ init: "s6", runner, offline: true });
    await mkdir(join(ctx.rootDir, "etc/s6/db/tend-g2-a"), { recursive: true });
    await symlink("tend-g2-a", join(ctx.rootDir, "etc/s6/db/current"));
    const observed = await observeServices(declared.slice(0, 4).concat(declared[4]!), ctx);
    expect(runner.lines).toEqual([
      `s6-rc-db -b -c ${ctx.rootDir}/etc/s6/db/current contents tend`,
      `s6-rc-db -b -c ${ctx.rootDir}/etc/s6/db/current list services`,
    ]);
    expect(observed.get("service:web")).toEqual({ exists: true, enabled: true, atBoot: { starts: true } });
    expect(observed.get("service:off")).toEqual({ exists: true, enabled: false, atBoot: { starts: false, why: OUTSIDE_BUNDLE } });
    expect(observed.get("service:new")).toEqual({ exists: false, enabled: false });
  });

  it("runs nothing before the first compile", async () => {
    const runner = new RecordingRunner();
    const ctx = await applyContext({ init: "s6", runner, offline: true });
    const observed = await observeServices([service({ name: "web", exec: "/bin/web" })], ctx);
    expect(runner.lines).toEqual([]);
    expect(observed.get("service:web")).toEqual({ exists: false, enabled: false });
  });
});
