import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceSchema, type Service } from "@tend/core";
import { afterEach, describe, expect, it } from "vitest";
import { SESSION_FILE } from "./process-session.js";
import { renderLongrun } from "./render-longrun.js";

/**
 * The rendered `run` and `finish` as s6-supervise runs them, without s6: `run` spawned as the
 * leader of a new session (node's detached spawn calls setsid, as s6-supervise does), `finish`
 * run in the service directory once the program is gone, with s6's arguments. The container
 * suites (integration/suites/s6.test.ts, s6rc.test.ts) prove the same under the real s6.
 */

const dirs: string[] = [];
const leaders: ChildProcess[] = [];

afterEach(() => {
  for (const leader of leaders.splice(0)) if (leader.pid) tryKill(-leader.pid, "SIGKILL");
  for (const dir of dirs.splice(0)) {
    for (const pid of pidsIn(dir)) tryKill(pid, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A service directory holding the rendered `run` and `finish` of `fields`, with `supervise/` as s6-supervise makes it. */
function serviceDir(fields: (dir: string) => Omit<Service, "type" | "name">): {
  dir: string;
  run: () => ChildProcess;
  /** `./finish EXITCODE SIGNAL SERVICEDIR [PGID]`, as s6-supervise runs it (the fourth since s6 2.13). */
  finish: (exitCode: string, signal: string, pgid?: string) => ReturnType<typeof spawnSync>;
} {
  const dir = mkdtempSync(join(tmpdir(), "tend-s6-session-"));
  dirs.push(dir);
  mkdirSync(join(dir, "supervise"));
  const service = ServiceSchema.parse({ type: "service", name: "x", ...fields(dir) });
  for (const artifact of renderLongrun(service)) {
    const file = artifact.path.replace("/etc/s6/sv/tend-x/", "");
    if (file === "run" || file === "finish") writeFileSync(join(dir, file), artifact.content, { mode: 0o755 });
  }
  return {
    dir,
    run: () => {
      const leader = spawn("./run", [dir], { cwd: dir, detached: true, stdio: "ignore" });
      leaders.push(leader);
      return leader;
    },
    finish: (exitCode, signal, pgid) => spawnSync("./finish", [exitCode, signal, dir, ...(pgid ? [pgid] : [])], { cwd: dir, encoding: "utf8", timeout: 10_000 }),
  };
}

function pidsIn(dir: string): number[] {
  const file = join(dir, "pids");
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).map(Number) : [];
}

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  for (const deadline = Date.now() + ms; !check(); await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

/**
 * Every process of the pipeline ended: a signalled process is gone within moments, but not
 * always by the time `./finish` returns on a busy machine (it is still exiting). Two seconds is
 * far below the 3 s grace a TERM-ignoring process gets, so a process still running fails this.
 */
async function gone(dir: string): Promise<void> {
  await until("every process of the pipeline to end", () => !pidsIn(dir).some(running), 2_000);
}

/** Running: exists and is not a zombie waiting to be reaped. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(") ") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

function processGroup(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(") ") + 2).split(" ")[2]);
}

function tryKill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already
  }
}

async function ended(leader: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  const exit = new Promise((resolve) => leader.once("exit", resolve));
  process.kill(leader.pid!, signal);
  await exit;
}

/** A pipeline whose sides note their pids in DIR/pids; with perl, the first side also starts a job in a process group of its own (same session). */
const hasPerl = existsSync("/usr/bin/perl");
function pipeline(dir: string, options: { ignoreTerm?: boolean } = {}): string {
  const note = `echo $$ >> ${dir}/pids`;
  const job = hasPerl ? `perl -e "setpgrp(0, 0); exec q(sleep), 1001" & echo $! >> ${dir}/pids; ` : "";
  const trap = options.ignoreTerm ? `trap "" TERM; ` : "";
  return `/bin/sh -c '${job}${note}; while :; do sleep 1; done' | /bin/sh -c '${trap}${note}; while :; do sleep 1; done'`;
}
const started = hasPerl ? 3 : 2;

describe("./finish ends everything the program started (s6 has no cgroups)", () => {
  it("after the program was killed: the other side of its pipeline and a job in another process group of its session", { timeout: 30_000 }, async () => {
    const svc = serviceDir((dir) => ({ exec: pipeline(dir), restart: "always" }));
    const leader = svc.run();
    await until("the pipeline to start", () => pidsIn(svc.dir).length === started);
    expect(readFileSync(join(svc.dir, SESSION_FILE), "utf8")).toBe(`${leader.pid}\n`);
    if (hasPerl) expect(pidsIn(svc.dir).map(processGroup).filter((group) => group !== leader.pid)).toHaveLength(1);

    await ended(leader, "SIGKILL");
    expect(pidsIn(svc.dir).every(running)).toBe(true); // s6 alone would leave them running
    const finish = svc.finish("256", "9");
    expect(finish.status).toBe(0);
    await gone(svc.dir);
    expect(existsSync(join(svc.dir, SESSION_FILE))).toBe(false);
  });

  it("after s6-svc -d (TERM to the program alone): what ignores TERM is killed 3 s later, saying so", { timeout: 30_000 }, async () => {
    const svc = serviceDir((dir) => ({ exec: pipeline(dir, { ignoreTerm: true }), restart: "on_failure" }));
    const leader = svc.run();
    await until("the pipeline to start", () => pidsIn(svc.dir).length === started);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the trap is set after the pid is noted
    await ended(leader, "SIGTERM");
    const began = Date.now();
    const finish = svc.finish("256", "15");
    expect(Date.now() - began).toBeGreaterThan(2_500);
    expect(Date.now() - began).toBeLessThan(5_000); // s6-supervise kills a finish after 5 s
    expect(finish.status).toBe(0); // on_failure: a signal is a failure, so s6 restarts it
    expect(finish.stdout).toMatch(/^tend: killing what is left of session \d+, still running 3 s after TERM$/m);
    await gone(svc.dir);
  });

  it("takes the session from s6's fourth argument when given (s6 2.13 passes the process group)", { timeout: 30_000 }, async () => {
    const svc = serviceDir((dir) => ({ exec: pipeline(dir) }));
    const leader = svc.run();
    await until("the pipeline to start", () => pidsIn(svc.dir).length === started);
    await ended(leader, "SIGKILL");
    rmSync(join(svc.dir, SESSION_FILE));
    const finish = svc.finish("256", "9", String(leader.pid));
    expect(finish.status).toBe(125); // restart "no"
    await gone(svc.dir);
  });

  it("without a noted session only applies the restart policy", () => {
    const svc = serviceDir(() => ({ exec: "/bin/true", restart: "on_failure" }));
    expect([svc.finish("0", "0").status, svc.finish("1", "0").status]).toEqual([125, 0]);
  });
});
