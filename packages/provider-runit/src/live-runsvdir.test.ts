import { spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProcessRunner, LocalHostFiles, type ApplyContext, type Artifact, type HostFileWriter, type Operation, type Scope, type Service } from "@tend/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { afterWrites } from "./after-writes.js";
import { applyChange } from "./apply-batch.js";
import { probeServices } from "./probe-services.js";
import { readLogs } from "./read-logs.js";
import { parseSvStatusLine } from "./parse-sv-status.js";
import { readSuperviseStatus } from "./read-supervise-status.js";
import { readSvStatus } from "./read-sv-status.js";
import { svBatch } from "./sv-batch.js";
import { writeSuperviseControl } from "./write-supervise-control.js";
import { removeService } from "./remove-batch.js";
import { renderService } from "./render-service.js";
import { startRunsvdir, stopRunsvdir } from "./__fixtures__/private-runsvdir.js";

/**
 * The rendered scripts and the apply sequences against a real runsvdir: user services under a
 * temp home, scanned by a runsvdir this test starts (and ends, with its whole process group).
 * The container suite (integration/suites/runit.test.ts) proves the same on runit as PID 1.
 */
const missing = ["runsvdir", "sv", "svlogd"].filter((tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0);

describe.skipIf(missing.length > 0)(`against a private runsvdir${missing.length ? ` (skipped: no ${missing.join(", ")})` : ""}`, () => {
  let base: string;
  let home: string;
  let runsvdir: ChildProcess;
  let ctx: ApplyContext;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "tend-runit-live-"));
    home = join(base, "home");
    await mkdir(join(home, ".local/service"), { recursive: true });
    const scope: Scope = { kind: "user", user: "tendlive", uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, home };
    ctx = {
      host: { name: "live", init: "runit", os: "linux", arch: process.arch, user: "tendlive", home },
      init: "runit",
      scope,
      run: new ProcessRunner(),
      files: homeAndEtc(home, join(base, "root")),
      offline: false,
      state: { get: () => undefined, set: () => undefined },
      log: () => undefined,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    };
    runsvdir = startRunsvdir(join(home, ".local/service"));
  });

  afterAll(async () => {
    await stopRunsvdir(runsvdir);
    await rm(base, { recursive: true, force: true });
  });

  const service = (name: string, fields: Omit<Service, "type" | "name" | "user">): Service => ({ type: "service", name, user: true, ...fields });
  const dir = (name: string) => join(home, ".local/service", `tend-${name}`);
  const change = (action: "add" | "change", resource: Service, ops: Operation[]) => ({ key: `service:${resource.name}`, action, resource, ops, filesChanged: true, reasons: [] });
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** Polls until `check` holds (runit acts asynchronously), failing after `ms`. */
  async function until(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
    for (const deadline = Date.now() + ms; !(await check()); await pause(200)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    }
  }

  /** What the core does before `afterWrites` and `apply`: write every artifact. */
  async function write(resource: Service): Promise<void> {
    for (const artifact of renderService(resource, ctx)) await writeArtifact(artifact);
  }
  async function writeArtifact(artifact: Artifact): Promise<void> {
    if (artifact.store === "directory") return void (await mkdir(artifact.path, { recursive: true, mode: artifact.mode }));
    await writeFile(artifact.path, artifact.content);
    await chmod(artifact.path, artifact.mode ?? 0o644);
  }
  async function add(...resources: Service[]): Promise<void> {
    for (const resource of resources) await write(resource);
    const changes = resources.map((resource) => change("add", resource, resource.desired?.state === "stopped" ? ["enable"] : ["enable", "start"]));
    await afterWrites(changes, [], ctx);
    for (const c of changes) await applyChange(c, ctx);
  }
  async function starts(name: string): Promise<number> {
    const text = await readFile(join(home, ".local/state/tend/log", `tend-${name}`, "current"), "utf8").catch(() => "");
    return text.split("\n").filter((line) => line.endsWith(" started")).length;
  }
  async function state(name: string) {
    return (await readSvStatus([dir(name)], ctx)).get(dir(name));
  }

  it("each restart policy behaves as the seed's table", { timeout: 60_000 }, async () => {
    const run = (code: number) => `/bin/sh -c 'echo started; sleep 0.5; exit ${code}'`;
    await add(
      service("no", { exec: run(1) }),
      service("onfail-clean", { exec: run(0), restart: "on_failure" }),
      service("onfail-crash", { exec: run(1), restart: "on_failure" }),
      service("always", { exec: run(0), restart: "always" }),
    );
    await pause(4000);
    expect(await starts("no")).toBe(1);
    expect(await starts("onfail-clean")).toBe(1);
    expect(await starts("onfail-crash")).toBeGreaterThanOrEqual(2);
    expect(await starts("always")).toBeGreaterThanOrEqual(2);
    for (const name of ["no", "onfail-clean"]) {
      expect((await state(name))?.service).toMatchObject({ state: "down", flags: ["normally up"] }); // down, and not wanted up
    }
    expect((await readLogs(service("always", { exec: "x" }), ctx)).filter((line) => line.endsWith(" started")).length).toBeGreaterThanOrEqual(2);
  });

  it("a change restarts even a restart = no service, with a new pid", { timeout: 60_000 }, async () => {
    const resource = service("changed", { exec: "/bin/sleep 1000" });
    await add(resource);
    // Under load runsv may report the start a moment after `sv up` returns: take its pid once it runs.
    await until("it to run", async () => (await probeServices([resource], ctx)).get("service:changed")?.up === true);
    const before = (await probeServices([resource], ctx)).get("service:changed");
    await applyChange(change("change", resource, ["restart"]), ctx);
    await pause(1200);
    const after = (await probeServices([resource], ctx)).get("service:changed");
    expect(after).toMatchObject({ up: true });
    expect(after?.identity).not.toBe(before?.identity);
  });

  it("after: a service waits until the one it runs after is up, even with restart = no", { timeout: 60_000 }, async () => {
    const db = service("db", { exec: "/bin/sleep 1000", restart: "always", desired: { state: "stopped", enabled: true } });
    const api = service("api", { exec: "/bin/sh -c 'echo started; exec sleep 1000'", after: ["db", "network"] });
    await add(db, api);
    expect(await starts("db")).toBe(0); // added stopped: never ran, not even once
    await pause(2500);
    expect((await probeServices([api], ctx)).get("service:api")?.up).toBe(false);
    expect(await starts("api")).toBe(0);

    await applyChange(change("change", db, ["start"]), ctx);
    await until("api to start after db", async () => (await probeServices([api], ctx)).get("service:api")?.up === true);
    await pause(1500);
    const probes = await probeServices([db, api], ctx);
    expect([probes.get("service:db")?.up, probes.get("service:api")?.up]).toEqual([true, true]);
    expect(await starts("api")).toBe(1);
  });

  it("reload delivers reloadSignal without a restart", { timeout: 60_000 }, async () => {
    const resource = service("reloads", { exec: `trap "echo reloaded" HUP; echo ready; while :; do sleep 0.2; done`, restart: "always", reloadSignal: "HUP" });
    await add(resource);
    // A HUP before the program has set its trap would end it: the program's race, not the reload's.
    await until("the program to set its trap", async () => (await readLogs(resource, ctx)).some((line) => line.endsWith(" ready")));
    const before = (await probeServices([resource], ctx)).get("service:reloads");
    await applyChange(change("change", resource, ["reload"]), ctx);
    await until("the program to log its reload", async () => (await readLogs(resource, ctx)).some((line) => line.endsWith(" reloaded")));
    expect((await probeServices([resource], ctx)).get("service:reloads")?.identity).toBe(before?.identity);
  });

  it("a runsv that started before the directory was complete is replaced", { timeout: 60_000 }, async () => {
    const resource = service("early", { exec: "/bin/sh -c 'echo started; exec sleep 1000'", restart: "always" });
    const [directory, ...rest] = renderService(resource, ctx);
    await writeArtifact(directory!);
    await writeArtifact(rest.find((a) => a.path.endsWith("/tend-early/run"))!);
    await until("runsv to pick up the half-written directory", async () => (await state("early"))?.service !== undefined);
    expect((await state("early"))?.log).toBeUndefined();
    for (const artifact of rest) await writeArtifact(artifact);
    await applyChange(change("add", resource, ["enable", "start"]), ctx);
    expect((await state("early"))?.log).toBeDefined();
    await until("the program to log through svlogd", async () => (await starts("early")) === 1);
  });

  describe("a pipeline ends as a whole (chpst -P, ./control/t, ./finish)", () => {
    /** Two shells in a pipeline, each noting its pid in pids-<name> and then sleeping; `ignoreTerm` makes the first ignore TERM. */
    const pipeline = (name: string, ignoreTerm = false) => {
      const log = join(base, `pids-${name}`);
      const trap = ignoreTerm ? `trap "" TERM; ` : "";
      return `/bin/sh -c '${trap}echo $$ >> ${log}; while :; do sleep 1; done' | /bin/sh -c 'echo $$ >> ${log}; exec sleep 1000'`;
    };
    const pids = async (name: string) => (await readFile(join(base, `pids-${name}`), "utf8").catch(() => "")).split("\n").filter(Boolean).map(Number);
    const supervised = async (resource: Service) => Number((await probeServices([resource], ctx)).get(`service:${resource.name}`)?.identity);

    it("the program's own end, a restart, a stop and removal leave no process of it", { timeout: 90_000 }, async () => {
      const resource = service("pipe", { exec: pipeline("pipe"), restart: "always" });
      await add(resource);
      await until("both sides to start", async () => (await pids("pipe")).length === 2);
      const leader = await supervised(resource);
      for (const pid of await pids("pipe")) expect(processGroup(pid)).toBe(leader);
      expect(processGroup(leader)).toBe(leader);

      process.kill(leader, "SIGKILL");
      await until("runsv to start it again", async () => (await pids("pipe")).length === 4);
      const [first, second] = await pids("pipe");
      await until("the first pipeline to be gone", async () => !running(first!) && !running(second!));
      expect((await pids("pipe")).slice(2).every(running)).toBe(true);

      await applyChange(change("change", resource, ["restart"]), ctx);
      await until("the restarted pipeline", async () => (await pids("pipe")).length === 6);
      expect((await pids("pipe")).map(running)).toEqual([false, false, false, false, true, true]);

      await applyChange(change("change", resource, ["stop"]), ctx);
      await until("the stopped pipeline to be gone", async () => !(await pids("pipe")).some(running), 5000);

      await applyChange(change("change", resource, ["start"]), ctx);
      await until("the started pipeline", async () => (await pids("pipe")).length === 8);
      await removeService({ key: "service:pipe", action: "remove", resource, ops: [], filesChanged: true, reasons: [] }, ctx);
      expect((await pids("pipe")).some(running)).toBe(false); // sv -v down waited for ./finish
    });

    it("what ignores TERM is killed 3 s later", { timeout: 60_000 }, async () => {
      const resource = service("stubborn", { exec: pipeline("stubborn", true), restart: "always" });
      await add(resource);
      await until("both sides to start", async () => (await pids("stubborn")).length === 2);
      const started = Date.now();
      await applyChange(change("change", resource, ["stop"]), ctx);
      expect(Date.now() - started).toBeLessThan(6000);
      await until("the pipeline to be gone", async () => !(await pids("stubborn")).some(running), 6000);
      expect(Date.now() - started).toBeGreaterThan(2500);
      expect((await readLogs(resource, ctx)).some((line) => line.includes("tend: killing what is left of process group"))).toBe(true);
    });
  });

  it("reads each state as `sv status` prints it, without starting sv", { timeout: 60_000 }, async () => {
    const scan = join(home, ".local/service");
    const make = async (folder: string, run: string, more: { down?: boolean; log?: boolean } = {}) => {
      await mkdir(join(folder, more.log ? "log" : ""), { recursive: true });
      await writeFile(join(folder, "run"), `#!/bin/sh\n${run}\n`, { mode: 0o755 });
      if (more.log) await writeFile(join(folder, "log/run"), "#!/bin/sh\nexec cat > /dev/null\n", { mode: 0o755 });
      if (more.down) await writeFile(join(folder, "down"), "");
    };
    const up = join(scan, "eq-up");
    const downFile = join(scan, "eq-downfile");
    const stubborn = join(scan, "eq-stubborn");
    const paused = join(scan, "eq-paused");
    const unsupervised = join(home, "eq-unsupervised");
    const noRunsv = join(home, "eq-norunsv");
    const missingDir = join(home, "eq-missing");
    await make(up, "exec sleep 1000", { log: true });
    await make(downFile, "exec sleep 1000", { down: true });
    // TERM stays ignored across exec: after `sv down` it keeps running, wanted down, TERM sent.
    await make(stubborn, "trap '' TERM; exec sleep 1000");
    await make(paused, "exec sleep 1000");
    await make(unsupervised, "exec sleep 1000");
    await make(noRunsv, "exec sleep 1000");
    await mkdir(join(noRunsv, "supervise"));
    spawnSync("mkfifo", [join(noRunsv, "supervise/ok")]);
    const sv = (...args: string[]) => new ProcessRunner().run({ argv: ["sv", ...args], okCodes: "any" });
    const svLines = async (dirs: string[]) => (await sv("status", ...dirs)).stdout.trim().split("\n");
    await until("runsvdir to supervise them", async () => (await svLines([up, stubborn, paused])).every((line) => line.startsWith("run: ")) && (await svLines([downFile]))[0]!.startsWith("down: "));
    await until("the log service", async () => (await svLines([up]))[0]!.includes("; run: log: "));
    await sv("down", stubborn);
    await sv("pause", paused);
    // runsv acts on a letter when it next reads its FIFO.
    await until("runsv to act on down and pause", async () => {
      const [s, p] = await svLines([stubborn, paused]);
      return s!.endsWith(", want down, got TERM") && p!.endsWith(", paused");
    });
    const dirs = [up, downFile, stubborn, paused, unsupervised, noRunsv, missingDir];
    const seconds = /(\) |: )(\d+)s/g;
    const before = dirs.map((d) => readSuperviseStatus(d, d));
    const printed = await svLines(dirs);
    const after = dirs.map((d) => readSuperviseStatus(d, d));
    expect(printed).toHaveLength(dirs.length);
    dirs.forEach((d, i) => {
      // The same line, but for the seconds, which sv read between the two readings.
      const asSv = printed[i]!;
      expect(before[i]!.line.replace(seconds, "$1Ns"), d).toBe(asSv.replace(seconds, "$1Ns"));
      const secs = (line: string) => [...line.matchAll(seconds)].map((m) => Number(m[2]));
      secs(asSv).forEach((n, j) => {
        expect(n).toBeGreaterThanOrEqual(secs(before[i]!.line)[j]!);
        expect(n).toBeLessThanOrEqual(secs(after[i]!.line)[j]!);
      });
      expect(before[i]).toEqual(parseSvStatusLine(before[i]!.line, d));
    });
    expect(printed.slice(2, 6).map((line) => line.replace(seconds, "$1Ns"))).toEqual([
      expect.stringMatching(new RegExp(`^run: ${stubborn}: \\(pid \\d+\\) Ns, want down, got TERM$`)),
      expect.stringMatching(new RegExp(`^run: ${paused}: \\(pid \\d+\\) Ns, paused$`)),
      `warning: ${unsupervised}: unable to open supervise/ok: file does not exist`,
      `fail: ${noRunsv}: runsv not running`,
    ]);
    expect(printed[6]).toBe(`fail: ${missingDir}: unable to change to service directory: file does not exist`);
    expect(printed[1]!.replace(seconds, "$1Ns")).toBe(`down: ${downFile}: Ns`);
    // readSvStatus reads them so on this machine's files: no process.
    const noProcess = { ...ctx, run: { run: () => Promise.reject(new Error("no process should start")) } };
    const read = await readSvStatus(dirs, noProcess);
    expect(dirs.map((d) => read.get(d)?.line.replace(seconds, "$1Ns"))).toEqual(printed.map((line) => line.replace(seconds, "$1Ns")));
    // Commands that only write a letter to supervise/control: sv's failures, word for word, and the effect.
    for (const d of [unsupervised, noRunsv, missingDir]) expect(writeSuperviseControl(d, d, "u"), d).toBe((await sv("up", d)).stdout.trim());
    expect(writeSuperviseControl(downFile, downFile, "u")).toBeUndefined();
    await until("the `up` written to start it", async () => readSuperviseStatus(downFile, downFile)?.service?.state === "run");
    const failures = await svBatch(noProcess, ["cont"], [{ key: "service:paused", dir: paused }, { key: "service:gone", dir: noRunsv }]);
    expect([...failures.keys()]).toEqual(["service:gone"]);
    expect((failures.get("service:gone") as Error).message).toContain(`fail: ${noRunsv}: runsv not running`);
    // runsv acts on a letter when it next reads its FIFO, as after sv's own write.
    await until("runsv to act on the cont", async () => readSuperviseStatus(paused, paused)?.service?.flags.includes("paused") === false);
    await sv("down", downFile);
    await sv("kill", stubborn);
  });

  it("removal brings it down", { timeout: 60_000 }, async () => {
    const resource = service("gone", { exec: "/bin/sleep 1000", restart: "always" });
    await add(resource);
    // Under load runsv may report the start a moment after `sv up` returns: its pid, once it runs.
    let pid = 0;
    await until("it to run", async () => {
      pid = Number((await probeServices([resource], ctx)).get("service:gone")?.identity);
      return pid > 0 && alive(pid);
    });
    await removeService({ key: "service:gone", action: "remove", resource, ops: [], filesChanged: true, reasons: [] }, ctx);
    await until("the process to end", async () => !alive(pid), 3000);
    expect((await state("gone"))?.service).toMatchObject({ state: "down" });
  });
});

/** A process that runs: exists and is not a zombie waiting to be reaped. */
function running(pid: number): boolean {
  return procStat(pid) !== undefined && procStat(pid)![0] !== "Z";
}

function processGroup(pid: number): number | undefined {
  const fields = procStat(pid);
  return fields ? Number(fields[2]) : undefined;
}

/** The fields of /proc/PID/stat after the command name: state, ppid, pgrp, … */
function procStat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(") ") + 2).split(" ");
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Host files for the test: the temp home as is, everything else (tend-runsvdir-<user> in /etc) in a temp root. */
function homeAndEtc(home: string, root: string): HostFileWriter {
  const real = new LocalHostFiles(undefined, { kind: "system" });
  const elsewhere = new LocalHostFiles(root, { kind: "system" });
  const pick = (path: string) => (path.startsWith(home) ? real : elsewhere);
  return {
    local: true,
    real: (path) => pick(path).real(path),
    exists: (path) => pick(path).exists(path),
    isDirectory: (path) => pick(path).isDirectory(path),
    readFile: (path) => pick(path).readFile(path),
    readLink: (path) => pick(path).readLink(path),
    readDir: (path) => pick(path).readDir(path),
    writeFile: (path, content, options) => pick(path).writeFile(path, content, options),
    symlink: (path, target) => pick(path).symlink(path, target),
    remove: (path) => pick(path).remove(path),
    mkdir: (path, options) => pick(path).mkdir(path, options),
  };
}
