import { mkdir, readFile, readlink, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Operation, ResourceChange, Service } from "@tend/core";
import { ALICE, applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { afterWrites } from "./after-writes.js";
import { applyBatch, applyChange } from "./apply-batch.js";
import { removeBatch, removeService } from "./remove-batch.js";
import { renderUserRunsvdirScript, userRunsvdir } from "./user-runsvdir.js";

const service = (name: string, fields: Omit<Service, "type" | "name"> = {}): Service => ({ type: "service", name, ...fields });
const change = (action: ResourceChange["action"], resource: Service, ops: Operation[] = []): ResourceChange => ({
  key: `service:${resource.name}`,
  action,
  resource,
  ops,
  filesChanged: action !== "change" || ops.includes("restart"),
  reasons: [],
});
const WEB = "/etc/sv/tend-web";

/** `sv status` answers running for every directory asked about, with a new pid after each `sv term` (as runsv restarts it). */
function restartable(): RecordingRunner {
  let generation = 0;
  return new RecordingRunner()
    .on("sv term", () => {
      generation += 1;
      return {};
    })
    .on("sv status", (command) => ({ stdout: command.argv.slice(2).map((dir) => `run: ${dir}: (pid ${1000 + generation}) 0s; run: log: (pid 2) 0s\n`).join("") }));
}
const up = (dir: string) => ({ stdout: `run: ${dir}: (pid 1140) 0s; run: log: (pid 1135) 0s\n` });

async function exists(path: string): Promise<boolean> {
  return readFile(path).then(
    () => true,
    () => false,
  );
}

describe("apply: add", () => {
  it("runs no command but waits for runsv, then starts", async () => {
    const runner = new RecordingRunner()
      .on(`sv status ${WEB}`, { exitCode: 1, stdout: `warning: ${WEB}: unable to open supervise/ok: file does not exist\n` }, 3)
      .on(`sv status ${WEB}`, up(WEB));
    const ctx = await applyContext({ init: "runit", runner });
    await mkdir(join(ctx.rootDir, WEB, "log"), { recursive: true });
    await applyChange(change("add", service("web", { exec: "/bin/web", restart: "always" }), ["enable", "start"]), ctx);
    expect(runner.lines).toEqual([
      `sv status ${WEB}`,
      `sv status ${WEB}`,
      `sv status ${WEB}`,
      `sv status ${WEB}`, // picked up, and runsv saw the finished directory
      `sv up ${WEB}`,
    ]);
  });

  it("gives up after a bounded wait, saying where to look", async () => {
    const runner = new RecordingRunner().on("sv status", { exitCode: 1, stdout: `warning: ${WEB}: unable to open supervise/ok: file does not exist\n` });
    const ctx = await applyContext({ init: "runit", runner });
    await expect(applyChange(change("add", service("web", { exec: "/bin/web" }), ["enable", "start"]), ctx)).rejects.toMatchObject({
      code: "TEND_RUNIT_NOT_SUPERVISED",
      message: `runsv did not pick up ${WEB} within 15 s`,
    });
    expect(runner.lines).toHaveLength(60);
    expect(runner.lines).not.toContain(`sv up ${WEB}`);
  });

  it("restarts a runsv that started before log/ existed, once a moment's readings still show no log service", async () => {
    const noLog = { stdout: `run: ${WEB}: (pid 1126) 0s; warning: ${WEB}/log: unable to open supervise/ok: file does not exist\n` };
    const runner = new RecordingRunner()
      .on(`sv status ${WEB}`, noLog, 6)
      .on(`sv exit ${WEB}`, {})
      // The old runsv, still ending its process: not yet the fresh one.
      .on(`sv status ${WEB}`, { stdout: `run: ${WEB}: (pid 1126) 1s; warning: ${WEB}/log: unable to open supervise/ok: file does not exist\n` }, 1)
      .on(`sv status ${WEB}`, up(WEB));
    const ctx = await applyContext({ init: "runit", runner });
    await mkdir(join(ctx.rootDir, WEB, "log"), { recursive: true });
    await applyChange(change("add", service("web", { exec: "/bin/web", restart: "always" }), ["enable", "start"]), ctx);
    expect(runner.lines).toEqual([...Array(6).fill(`sv status ${WEB}`), `sv exit ${WEB}`, `sv status ${WEB}`, `sv status ${WEB}`, `sv up ${WEB}`]);
    expect(ctx.logged).toEqual([`runit: runsv started ${WEB} before tend had written it; restarting that runsv`]);
  });

  it("takes a log service that shows up a moment later for what it is: no restart", async () => {
    const runner = new RecordingRunner()
      .on(`sv status ${WEB}`, { stdout: `run: ${WEB}: (pid 1126) 0s; warning: ${WEB}/log: unable to open supervise/ok: file does not exist\n` }, 2)
      .on(`sv status ${WEB}`, { stdout: `run: ${WEB}: (pid 1126) 0s; run: log: (pid 1125) 0s\n` });
    const ctx = await applyContext({ init: "runit", runner });
    await mkdir(join(ctx.rootDir, WEB, "log"), { recursive: true });
    await applyChange(change("add", service("web", { exec: "/bin/web", restart: "always" }), ["enable", "start"]), ctx);
    expect(runner.lines).toEqual([`sv status ${WEB}`, `sv status ${WEB}`, `sv status ${WEB}`, `sv up ${WEB}`]);
    expect(ctx.logged).toEqual([]);
  });

  it("restarts a runsv that missed the down file at once, and a runsv that exited meanwhile is no failure", async () => {
    const runner = new RecordingRunner()
      .on(`sv status ${WEB}`, { stdout: `run: ${WEB}: (pid 7) 0s; run: log: (pid 6) 0s\n` }, 1)
      .on(`sv exit ${WEB}`, { exitCode: 1, stdout: `fail: ${WEB}: runsv not running\n` })
      .on(`sv status ${WEB}`, { stdout: `down: ${WEB}: 0s; run: log: (pid 9) 0s\n` });
    const ctx = await applyContext({ init: "runit", runner });
    await mkdir(join(ctx.rootDir, WEB, "log"), { recursive: true });
    await writeFile(join(ctx.rootDir, WEB, "down"), "");
    await applyChange(change("add", service("web", { exec: "/bin/web", desired: { state: "running", enabled: false } }), ["start"]), ctx);
    expect(runner.lines).toEqual([`sv status ${WEB}`, `sv exit ${WEB}`, `sv status ${WEB}`, `sv up ${WEB}`]);
  });

  it("a service added stopped never runs: a transient down file until runsv has seen it", async () => {
    const runner = new RecordingRunner().on(`sv status ${WEB}`, { stdout: `down: ${WEB}: 0s; run: log: (pid 9) 0s\n` });
    const ctx = await applyContext({ init: "runit", runner });
    await mkdir(join(ctx.rootDir, WEB, "log"), { recursive: true });
    const add = change("add", service("web", { exec: "/bin/web", desired: { state: "stopped", enabled: true } }), ["enable"]);
    await afterWrites([add], [], ctx);
    expect(await exists(join(ctx.rootDir, WEB, "down"))).toBe(true);
    await applyChange(add, ctx);
    expect(await exists(join(ctx.rootDir, WEB, "down"))).toBe(false);
    expect(runner.lines).toEqual([`sv status ${WEB}`]);
  });

  // A killed apply linked the directory moments before: no runsv on it yet, and the plan saw it stopped.
  it.each([
    ["stopped", service("web", { exec: "/bin/web", desired: { state: "stopped", enabled: true } }), [], []],
    ["running", service("web", { exec: "/bin/web", restart: "always" }), ["start"], [`sv up ${WEB}`]],
  ] as const)("a changed service wanted %s that no runsv supervises yet is held the same way, then stopped in case its runsv came first with the old run (and then started if wanted)", async (_, resource, ops, after) => {
    const runner = new RecordingRunner()
      .on(`sv status ${WEB}`, { exitCode: 1, stdout: `warning: ${WEB}: unable to open supervise/ok: file does not exist\n` }, 1)
      .on(`sv status ${WEB}`, { stdout: `down: ${WEB}: 0s, normally up; run: log: (pid 9) 0s\n` })
      .on(`sv stop ${WEB}`, { stdout: `ok: down: ${WEB}: 0s, normally up\n` });
    const ctx = await applyContext({ init: "runit", runner });
    await mkdir(join(ctx.rootDir, WEB, "log"), { recursive: true });
    const changed = { ...change("change", resource, [...ops]), filesChanged: true };
    await afterWrites([changed], [], ctx);
    expect(await readFile(join(ctx.rootDir, WEB, "down"), "utf8")).toContain("Written by tend while it adds this service stopped");
    await applyChange(changed, ctx);
    expect(await exists(join(ctx.rootDir, WEB, "down"))).toBe(false);
    expect(runner.lines).toEqual([`sv status ${WEB}`, `sv status ${WEB}`, `sv stop ${WEB}`, ...after]);
  });

  it("a changed service wanted stopped that its runsv supervises is left alone: no hold, no command", async () => {
    const runner = new RecordingRunner().on(`sv status ${WEB}`, { stdout: `down: ${WEB}: 9s, normally up; run: log: (pid 9) 9s\n` });
    const ctx = await applyContext({ init: "runit", runner });
    await mkdir(join(ctx.rootDir, WEB, "log"), { recursive: true });
    const stopped = change("change", service("web", { exec: "/bin/web", desired: { state: "stopped", enabled: true } }));
    await afterWrites([stopped], [], ctx);
    await applyChange(stopped, ctx);
    expect(await exists(join(ctx.rootDir, WEB, "down"))).toBe(false);
    expect(runner.lines).toEqual([`sv status ${WEB}`]);
  });

  it("under --root writes nothing transient and runs nothing", async () => {
    const ctx = await applyContext({ init: "runit", offline: true });
    const add = change("add", service("web", { exec: "/bin/web", desired: { state: "stopped", enabled: true } }), ["enable"]);
    await afterWrites([add], [], ctx);
    await applyChange(add, ctx);
    await applyChange(change("add", service("api", { exec: "/bin/api" }), ["enable", "start"]), ctx);
    expect(ctx.runner.calls).toEqual([]);
    expect(await exists(join(ctx.rootDir, WEB, "down"))).toBe(false);
  });

  it("a distro service is only linked: no wait, no command", async () => {
    const ctx = await applyContext({ init: "runit" });
    await applyChange(change("add", service("sshd"), ["enable"]), ctx);
    expect(ctx.runner.calls).toEqual([]);
  });

  it("a distro service that is to run is started once runsv has it", async () => {
    const runner = new RecordingRunner().on("sv status /etc/sv/sshd", up("/etc/sv/sshd"));
    const ctx = await applyContext({ init: "runit", runner });
    await applyChange(change("add", service("sshd", { desired: { state: "running", enabled: true } }), ["enable", "start"]), ctx);
    expect(runner.lines).toEqual(["sv status /etc/sv/sshd", "sv up /etc/sv/sshd"]);
  });

  it("a distro service added stopped is brought down, since linking starts it", async () => {
    const runner = new RecordingRunner().on("sv status /etc/sv/sshd", up("/etc/sv/sshd"));
    const ctx = await applyContext({ init: "runit", runner });
    await applyChange(change("add", service("sshd", { desired: { state: "stopped", enabled: true } }), ["enable"]), ctx);
    expect(runner.lines).toEqual(["sv status /etc/sv/sshd", "sv stop /etc/sv/sshd"]);
  });

  it("a distro service added stopped and disabled is not linked, so nothing waits for a runsv or stops it", async () => {
    const ctx = await applyContext({ init: "runit" });
    await applyChange(change("add", service("sshd", { desired: { state: "stopped", enabled: false } }), []), ctx);
    expect(ctx.runner.calls).toEqual([]);
  });
});

describe("apply: user services", () => {
  const dir = "/home/alice/.local/service/tend-syncthing";
  const syncthing = service("syncthing", { exec: "syncthing serve", user: true, restart: "always" });

  it("the first one creates tend-runsvdir-alice, then waits for the user's runsvdir", async () => {
    const runner = new RecordingRunner().on(`sv status ${dir}`, { exitCode: 1, stdout: `fail: ${dir}: runsv not running\n` }, 5).on(`sv status ${dir}`, up(dir));
    const ctx = await applyContext({ init: "runit", scope: ALICE, runner });
    await mkdir(join(ctx.rootDir, dir, "log"), { recursive: true });
    const add = change("add", syncthing, ["enable", "start"]);
    await afterWrites([add], [], ctx);
    const runsvdir = userRunsvdir("alice", "/home/alice");
    expect(await readFile(join(ctx.rootDir, runsvdir.dir, "run"), "utf8")).toBe(renderUserRunsvdirScript(runsvdir));
    expect(await readlink(join(ctx.rootDir, runsvdir.link))).toBe(runsvdir.dir);
    await applyChange(add, ctx);
    expect(runner.lines.filter((line) => line !== `sv status ${dir}`)).toEqual([`sv up ${dir}`]);
    expect(runner.lines).toHaveLength(7);
  });

  it("repairs a missing tend-runsvdir-alice on any change", async () => {
    const ctx = await applyContext({ init: "runit", scope: ALICE, runner: new RecordingRunner().on(`sv status ${dir}`, up(dir)) });
    await applyChange(change("change", syncthing, ["enable"]), ctx);
    expect(await exists(join(ctx.rootDir, "/etc/sv/tend-runsvdir-alice/run"))).toBe(true);
  });
});

describe("apply: operations", () => {
  const running = restartable();
  const run = async (resource: Service, ops: Operation[], action: ResourceChange["action"] = "change") => {
    running.clear();
    const ctx = await applyContext({ init: "runit", runner: running });
    await applyChange(change(action, resource, ops), ctx);
    return { lines: running.lines, ctx };
  };

  it("restart always: the pid before (from the wait for runsv), what sv restart sends (term, cont, up), then sv status until a new pid runs", async () => {
    expect((await run(service("web", { exec: "/bin/web", restart: "always" }), ["restart"])).lines).toEqual([
      `sv status ${WEB}`,
      `sv term ${WEB}`,
      `sv cont ${WEB}`,
      `sv up ${WEB}`,
      `sv status ${WEB}`,
    ]);
  });

  it("a changed service the plan saw stopped that runs once its files are written (its runsv came in between, maybe with the old run) is restarted, not just upped", async () => {
    const raced = { ...change("change", service("web", { exec: "/bin/web", restart: "always" }), ["start"]), filesChanged: true };
    running.clear();
    await applyChange(raced, await applyContext({ init: "runit", runner: running }));
    expect(running.lines).toEqual([`sv status ${WEB}`, `sv term ${WEB}`, `sv cont ${WEB}`, `sv up ${WEB}`, `sv status ${WEB}`]);
    // Nothing written: the running program is the one on disk, and an up is enough.
    running.clear();
    await applyChange({ ...raced, filesChanged: false }, await applyContext({ init: "runit", runner: running }));
    expect(running.lines).toEqual([`sv status ${WEB}`, `sv up ${WEB}`]);
  });

  it("a restart is done only once runsv runs a new process: not while the old pid still runs, nor in runsv's one-second hold", async () => {
    const readings = [
      `run: ${WEB}: (pid 7) 40s; run: log: (pid 2) 40s`, // the wait for runsv: the pid before
      `run: ${WEB}: (pid 7) 40s, got TERM; run: log: (pid 2) 40s`, // runsv has not acted yet
      `down: ${WEB}: 0s, normally up, want up; run: log: (pid 2) 40s`, // it ran under a second: runsv waits one
      `run: ${WEB}: (pid 9) 0s; run: log: (pid 2) 41s`,
    ];
    const runner = new RecordingRunner().on("sv status", () => ({ stdout: `${readings.shift() ?? readings.at(-1)}\n` }));
    const ctx = await applyContext({ init: "runit", runner });
    await applyChange(change("change", service("web", { exec: "/bin/web", restart: "always" }), ["restart"]), ctx);
    expect(runner.lines.filter((line) => line.startsWith("sv status"))).toHaveLength(4);
  });

  it("a restart whose process never changes fails after sv's own seven seconds, with sv's wording", async () => {
    const runner = new RecordingRunner().on("sv status", { stdout: `run: ${WEB}: (pid 7) 40s, got TERM; run: log: (pid 2) 40s\n` });
    const ctx = await applyContext({ init: "runit", runner });
    await expect(applyChange(change("change", service("web", { exec: "/bin/web", restart: "always" }), ["restart"]), ctx)).rejects.toMatchObject({
      code: "TEND_COMMAND_FAILED",
      message: `\`sv restart ${WEB}\` exited 1: timeout: run: ${WEB}: (pid 7) 40s, got TERM; run: log: (pid 2) 40s`,
    });
    expect(runner.lines.filter((line) => line === `sv status ${WEB}`)).toHaveLength(1 + 142); // the wait for runsv (the pid before), then 7 s of polls: at once, after 10, 30 and 70 ms, then every 50 ms to 6,970 ms
  });

  it("restart with a finish script: stop (waits), then up, since ./finish would turn sv restart into a stop", async () => {
    expect((await run(service("web", { exec: "/bin/web" }), ["restart"])).lines).toEqual([`sv status ${WEB}`, `sv stop ${WEB}`, `sv up ${WEB}`]);
    expect((await run(service("web", { exec: "/bin/web", restart: "on_failure" }), ["restart"])).lines).toEqual([`sv status ${WEB}`, `sv stop ${WEB}`, `sv up ${WEB}`]);
  });

  it("start, stop", async () => {
    expect((await run(service("web", { exec: "/bin/web" }), ["start"])).lines).toEqual([`sv status ${WEB}`, `sv up ${WEB}`]);
    expect((await run(service("web", { exec: "/bin/web" }), ["stop"])).lines).toEqual([`sv status ${WEB}`, `sv stop ${WEB}`]);
  });

  it("reload sends reloadSignal with sv", async () => {
    expect((await run(service("web", { exec: "/bin/web", reloadSignal: "HUP" }), ["reload"])).lines).toEqual([`sv status ${WEB}`, `sv hup ${WEB}`]);
    expect((await run(service("web", { exec: "/bin/web", reloadSignal: "USR1" }), ["reload"])).lines).toEqual([`sv status ${WEB}`, `sv 1 ${WEB}`]);
    expect((await run(service("sshd", { reloadSignal: "HUP" }), ["reload"])).lines).toEqual(["sv status /etc/sv/sshd", "sv hup /etc/sv/sshd"]);
  });

  it("reload without reloadSignal fails, never restarts", async () => {
    await expect(run(service("web", { exec: "/bin/web" }), ["reload"])).rejects.toMatchObject({
      code: "TEND_CANNOT_RELOAD",
      message: "service:web lists resources in reloadOn, but it cannot reload on runit",
    });
    expect(running.lines).toEqual([]);
  });

  it("a failing sv is an error naming the command", async () => {
    const runner = new RecordingRunner().on(`sv status ${WEB}`, up(WEB)).on(`sv stop ${WEB}`, { exitCode: 1, stdout: `timeout: run: ${WEB}: (pid 4213) 18s, want down, got TERM\n` });
    const ctx = await applyContext({ init: "runit", runner });
    await expect(applyChange(change("change", service("web", { exec: "/bin/web" }), ["restart"]), ctx)).rejects.toMatchObject({
      code: "TEND_COMMAND_FAILED",
      message: `\`sv stop ${WEB}\` exited 1: timeout: run: ${WEB}: (pid 4213) 18s, want down, got TERM`,
    });
    expect(runner.lines).not.toContain(`sv up ${WEB}`);
  });

  it("enable removes a down file tend did not write; disable of a tend service is its down artifact", async () => {
    const ctx = await applyContext({ init: "runit" });
    await mkdir(join(ctx.rootDir, WEB), { recursive: true });
    await writeFile(join(ctx.rootDir, WEB, "down"), "");
    await applyChange(change("change", service("web", { exec: "/bin/web" }), ["enable"]), ctx);
    expect(await exists(join(ctx.rootDir, WEB, "down"))).toBe(false);
    await writeFile(join(ctx.rootDir, WEB, "down"), "");
    await applyChange(change("change", service("web", { exec: "/bin/web", desired: { state: "stopped", enabled: false } }), ["disable"]), ctx);
    expect(await exists(join(ctx.rootDir, WEB, "down"))).toBe(true);
    expect(ctx.runner.calls).toEqual([]);
  });

  it("a distro service enabled while stopped is brought down once runsv has it, since linking starts it", async () => {
    const runner = new RecordingRunner().on("sv status /etc/sv/sshd", up("/etc/sv/sshd"));
    const ctx = await applyContext({ init: "runit", runner });
    await applyChange(change("change", service("sshd", { desired: { state: "stopped", enabled: true } }), ["enable"]), ctx);
    expect(runner.lines).toEqual(["sv status /etc/sv/sshd", "sv stop /etc/sv/sshd"]);
  });

  it("disable unlinks a distro service, even one tend did not link", async () => {
    const ctx = await applyContext({ init: "runit" });
    const link = join(ctx.rootDir, "/etc/runit/runsvdir/default/sshd");
    await mkdir(dirname(link), { recursive: true });
    await symlink("/etc/sv/sshd", link);
    await applyChange(change("change", service("sshd", { desired: { state: "stopped", enabled: false } }), ["disable"]), ctx);
    expect(await readlink(link).catch(() => null)).toBeNull();
  });

  // The core removed the link before this ran; runsvdir's next scan stops the service and ends its runsv.
  it("stop and disable of a distro service: no wait for a runsv, and a runsv runsvdir has already ended is that stop done", async () => {
    const gone = { exitCode: 1, stdout: "fail: /etc/sv/sshd: runsv not running\n" };
    const runner = new RecordingRunner().on("sv stop /etc/sv/sshd", gone);
    const ctx = await applyContext({ init: "runit", runner });
    await applyChange(change("change", service("sshd", { desired: { state: "stopped", enabled: false } }), ["stop", "disable"]), ctx);
    expect(runner.lines).toEqual(["sv stop /etc/sv/sshd"]);

    const timeout = { exitCode: 1, stdout: "timeout: run: /etc/sv/sshd: (pid 4213) 18s, want down, got TERM\n" };
    const stuck = await applyContext({ init: "runit", runner: new RecordingRunner().on("sv stop /etc/sv/sshd", timeout) });
    await expect(applyChange(change("change", service("sshd", { desired: { state: "stopped", enabled: false } }), ["stop", "disable"]), stuck)).rejects.toMatchObject({
      code: "TEND_COMMAND_FAILED",
      message: "`sv stop /etc/sv/sshd` exited 1: timeout: run: /etc/sv/sshd: (pid 4213) 18s, want down, got TERM",
    });
  });
});

describe("remove", () => {
  it("brings a tend service down, unlinks it and waits for its runsv to exit", async () => {
    const runner = new RecordingRunner();
    const ctx = await applyContext({ init: "runit", runner });
    const link = join(ctx.rootDir, "/etc/runit/runsvdir/default/tend-web");
    await mkdir(dirname(link), { recursive: true });
    await symlink(WEB, link);
    await removeService(change("remove", service("web", { exec: "/bin/web" })), ctx);
    expect(runner.lines).toEqual([`sv -v -w 15 down ${WEB}`, `sv -v -w 10 exit ${WEB}`]);
    expect(await readlink(link).catch(() => null)).toBeNull();
  });

  it("a runsv that is gone is fine; a link that is gone means no runsv to wait for", async () => {
    const runner = new RecordingRunner().on(`sv -v -w 15 down ${WEB}`, { exitCode: 1, stdout: `warning: ${WEB}: unable to open supervise/ok: file does not exist\n` });
    const ctx = await applyContext({ init: "runit", runner });
    await removeService(change("remove", service("web", { exec: "/bin/web" })), ctx);
    expect(runner.lines).toEqual([`sv -v -w 15 down ${WEB}`]);
  });

  it("a user service: sv down only, waited for (its directory is the scanned entry)", async () => {
    const ctx = await applyContext({ init: "runit", scope: ALICE });
    await removeService(change("remove", service("sync", { exec: "/bin/sync", user: true })), ctx);
    expect(ctx.runner.lines).toEqual(["sv -v -w 15 down /home/alice/.local/service/tend-sync"]);
  });

  it("clears a down file it did not record, keeps one it did (the core deletes it)", async () => {
    const ctx = await applyContext({ init: "runit" });
    await mkdir(join(ctx.rootDir, WEB), { recursive: true });
    await writeFile(join(ctx.rootDir, WEB, "down"), "");
    await removeService(change("remove", service("web", { exec: "/bin/web", desired: { state: "running", enabled: false } })), ctx);
    expect(await exists(join(ctx.rootDir, WEB, "down"))).toBe(true);
    await removeService(change("remove", service("web", { exec: "/bin/web" })), ctx);
    expect(await exists(join(ctx.rootDir, WEB, "down"))).toBe(false);
  });

  it("leaves a distro service to the core's unlinking, and runs nothing under --root", async () => {
    const ctx = await applyContext({ init: "runit" });
    await removeService(change("remove", service("sshd")), ctx);
    const offline = await applyContext({ init: "runit", offline: true });
    await removeService(change("remove", service("web", { exec: "/bin/web" })), offline);
    expect([...ctx.runner.calls, ...offline.runner.calls]).toEqual([]);
  });
});

describe("batches: one wave, the same commands for 3 services as for 60", () => {
  /** `sv status` answered for every directory it is asked about: supervised and running. */
  const runsvEverywhere = restartable;
  const names = (count: number) => Array.from({ length: count }, (_, i) => `s${i}`);
  const dirs = (count: number) => names(count).map((name) => `/etc/sv/tend-${name}`).join(" ");

  async function commandsFor(count: number, make: (name: string) => ResourceChange, batch: typeof applyBatch = applyBatch) {
    const runner = runsvEverywhere();
    const ctx = await applyContext({ init: "runit", runner });
    for (const name of names(count)) {
      await mkdir(join(ctx.rootDir, "/etc/runit/runsvdir/default"), { recursive: true });
      await symlink(`/etc/sv/tend-${name}`, join(ctx.rootDir, `/etc/runit/runsvdir/default/tend-${name}`));
    }
    expect(await batch(names(count).map(make), ctx)).toEqual(new Map());
    return runner.lines;
  }

  it("fresh adds: one wait for runsvdir to pick up all of them, one sv up", async () => {
    const add = (name: string) => change("add", service(name, { exec: `/bin/${name}`, restart: "always" }), ["enable", "start"]);
    expect(await commandsFor(3, add)).toEqual([`sv status ${dirs(3)}`, `sv up ${dirs(3)}`]);
    expect(await commandsFor(60, add)).toEqual([`sv status ${dirs(60)}`, `sv up ${dirs(60)}`]);
  });

  it("restarts: one sv term, cont and up (and status before and after), and one sv stop and one sv up for the policies whose ./finish would stop it", async () => {
    const restart = (name: string) => change("change", service(name, { exec: `/bin/${name}`, restart: Number(name.slice(1)) % 2 === 0 ? "always" : "no" }), ["restart"]);
    const even = (count: number) => names(count).filter((_, i) => i % 2 === 0).map((name) => `/etc/sv/tend-${name}`).join(" ");
    const odd = (count: number) => names(count).filter((_, i) => i % 2 === 1).map((name) => `/etc/sv/tend-${name}`).join(" ");
    for (const count of [3, 60]) {
      expect(await commandsFor(count, restart)).toEqual([
        `sv status ${dirs(count)}`,
        `sv term ${even(count)}`,
        `sv cont ${even(count)}`,
        `sv up ${even(count)}`,
        `sv status ${even(count)}`,
        `sv stop ${odd(count)}`,
        `sv up ${odd(count)}`,
      ]);
    }
  });

  it("stops: one sv stop, which waits for all of them", async () => {
    const stop = (name: string) => change("change", service(name, { exec: `/bin/${name}`, desired: { state: "stopped", enabled: true } }), ["stop"]);
    expect(await commandsFor(3, stop)).toEqual([`sv status ${dirs(3)}`, `sv stop ${dirs(3)}`]);
    expect(await commandsFor(60, stop)).toEqual([`sv status ${dirs(60)}`, `sv stop ${dirs(60)}`]);
  });

  it("reloads: one sv command per signal", async () => {
    const reload = (name: string) => change("change", service(name, { exec: `/bin/${name}`, reloadSignal: "HUP" }), ["reload"]);
    expect(await commandsFor(3, reload)).toEqual([`sv status ${dirs(3)}`, `sv hup ${dirs(3)}`]);
    expect(await commandsFor(60, reload)).toEqual([`sv status ${dirs(60)}`, `sv hup ${dirs(60)}`]);
  });

  it("removals: one sv -v down, one sv -v exit", async () => {
    const remove = (name: string) => change("remove", service(name, { exec: `/bin/${name}` }));
    expect(await commandsFor(3, remove, removeBatch)).toEqual([`sv -v -w 15 down ${dirs(3)}`, `sv -v -w 10 exit ${dirs(3)}`]);
    expect(await commandsFor(60, remove, removeBatch)).toEqual([`sv -v -w 15 down ${dirs(60)}`, `sv -v -w 10 exit ${dirs(60)}`]);
  });

  it("splits a wave into sv calls of 500 directories", async () => {
    const add = (name: string) => change("add", service(name, { exec: `/bin/${name}` }), ["enable", "start"]);
    const lines = await commandsFor(1200, add);
    expect(lines.map((line) => `${line.split(" ").slice(0, 2).join(" ")} ×${line.split(" ").length - 2}`)).toEqual([
      "sv status ×500",
      "sv status ×500",
      "sv status ×200",
      "sv up ×500",
      "sv up ×500",
      "sv up ×200",
    ]);
  });
});

describe("batches: failures are pinned on their service", () => {
  const A = "/etc/sv/tend-a";
  const B = "/etc/sv/tend-b";
  const C = "/etc/sv/tend-c";
  const three = (ops: Operation[], fields: Omit<Service, "type" | "name"> = {}) =>
    ["a", "b", "c"].map((name) => change("change", service(name, { exec: `/bin/${name}`, restart: "always", ...fields }), ops));
  const supervised = (runner: RecordingRunner) =>
    runner.on("sv status", (command) => ({ stdout: command.argv.slice(2).map((dir) => `run: ${dir}: (pid 1) 0s; run: log: (pid 2) 0s\n`).join("") }));

  it("by the line sv prints for each directory", async () => {
    const runner = supervised(new RecordingRunner()).on(`sv stop ${A} ${B} ${C}`, {
      exitCode: 1,
      stdout: `ok: down: ${A}: 0s\ntimeout: run: ${B}: (pid 4213) 18s, want down, got TERM\nok: down: ${C}: 0s\n`,
    });
    const ctx = await applyContext({ init: "runit", runner });
    const failures = await applyBatch(three(["stop"]), ctx);
    expect([...failures.keys()]).toEqual(["service:b"]);
    expect(failures.get("service:b")).toMatchObject({
      code: "TEND_COMMAND_FAILED",
      message: `\`sv stop ${B}\` exited 1: timeout: run: ${B}: (pid 4213) 18s, want down, got TERM`,
    });
    expect(runner.lines).toEqual([`sv status ${A} ${B} ${C}`, `sv stop ${A} ${B} ${C}`]);
  });

  it("a restart that does not take is pinned on its service; the others are done at the first reading", async () => {
    let termed = false;
    const runner = new RecordingRunner()
      .on(`sv term ${A} ${B} ${C}`, () => {
        termed = true;
        return {};
      })
      .on("sv status", (command) => ({
        stdout: command.argv
          .slice(2)
          .map((dir) => (termed && dir !== B ? `run: ${dir}: (pid 20) 0s\n` : `run: ${dir}: (pid 10) 9s${dir === B && termed ? ", got TERM" : ""}\n`))
          .join(""),
      }));
    const ctx = await applyContext({ init: "runit", runner });
    const failures = await applyBatch(three(["restart"]), ctx);
    expect([...failures.keys()]).toEqual(["service:b"]);
    expect(failures.get("service:b")).toMatchObject({ code: "TEND_COMMAND_FAILED", message: `\`sv restart ${B}\` exited 1: timeout: run: ${B}: (pid 10) 9s, got TERM` });
    expect(runner.lines.slice(0, 5)).toEqual([
      `sv status ${A} ${B} ${C}`,
      `sv term ${A} ${B} ${C}`,
      `sv cont ${A} ${B} ${C}`,
      `sv up ${A} ${B} ${C}`,
      `sv status ${A} ${B} ${C}`,
    ]);
    expect(runner.lines.slice(5).every((line) => line === `sv status ${B}`)).toBe(true);
  });

  it("one by one when sv's output names no directory", async () => {
    const runner = supervised(new RecordingRunner())
      .on(`sv up ${A} ${B} ${C}`, { exitCode: 1 })
      .on(`sv up ${C}`, { exitCode: 1, stderr: "fail: something odd\n" });
    const ctx = await applyContext({ init: "runit", runner });
    const failures = await applyBatch(three(["start"]), ctx);
    expect([...failures.keys()]).toEqual(["service:c"]);
    expect(runner.lines).toEqual([`sv status ${A} ${B} ${C}`, `sv up ${A} ${B} ${C}`, `sv up ${A}`, `sv up ${B}`, `sv up ${C}`]);
  });

  it("a directory runsv never picks up fails alone; the others go on", async () => {
    const runner = new RecordingRunner().on("sv status", (command) => ({
      exitCode: command.argv.includes(B) ? 1 : 0,
      stdout: command.argv
        .slice(2)
        .map((dir) => (dir === B ? `warning: ${B}: unable to open supervise/ok: file does not exist\n` : `run: ${dir}: (pid 1) 0s; run: log: (pid 2) 0s\n`))
        .join(""),
    }));
    const ctx = await applyContext({ init: "runit", runner });
    const adds = ["a", "b", "c"].map((name) => change("add", service(name, { exec: `/bin/${name}` }), ["enable", "start"]));
    const failures = await applyBatch(adds, ctx);
    expect([...failures.keys()]).toEqual(["service:b"]);
    expect(failures.get("service:b")).toMatchObject({ code: "TEND_RUNIT_NOT_SUPERVISED" });
    expect(runner.lines[0]).toBe(`sv status ${A} ${B} ${C}`);
    expect(runner.lines.slice(1, -1).every((line) => line === `sv status ${B}`)).toBe(true); // the wait goes on for b alone
    expect(runner.lines.at(-1)).toBe(`sv up ${A} ${C}`);
  });

  it("a restart whose stop failed is not started again", async () => {
    const runner = supervised(new RecordingRunner()).on(`sv stop ${A} ${B} ${C}`, { exitCode: 1, stdout: `ok: down: ${A}: 0s\ntimeout: run: ${B}: (pid 7) 9s, want down\nok: down: ${C}: 0s\n` });
    const ctx = await applyContext({ init: "runit", runner });
    const failures = await applyBatch(three(["restart"], { restart: "no" }), ctx);
    expect([...failures.keys()]).toEqual(["service:b"]);
    expect(runner.lines.at(-1)).toBe(`sv up ${A} ${C}`);
  });

  it("removal: a service still up after the wait keeps its files; one whose runsv is gone is fine", async () => {
    const runner = new RecordingRunner().on(`sv -v -w 15 down ${A} ${B} ${C}`, {
      exitCode: 2,
      stdout: `timeout: run: ${A}: (pid 7) 20s, want down\nwarning: ${B}: unable to open supervise/ok: file does not exist\nok: down: ${C}: 0s\n`,
    });
    const ctx = await applyContext({ init: "runit", runner });
    const failures = await removeBatch(["a", "b", "c"].map((name) => change("remove", service(name, { exec: `/bin/${name}` }))), ctx);
    expect([...failures.keys()]).toEqual(["service:a"]);
  });
});
