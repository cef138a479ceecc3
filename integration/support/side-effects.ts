import { NODE_IN_HOST, TEND_IN_HOST, type TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { spec } from "./spec-documents.js";

/** The system calls that start a program or change a file, strace's names. */
const TRACED = [
  "execve", "openat", "creat", "write", "pwrite64", "writev", "pwritev", "rename", "renameat", "renameat2", "unlink",
  "unlinkat", "mkdir", "mkdirat", "rmdir", "symlink", "symlinkat", "link", "linkat", "chmod", "fchmod", "fchmodat",
  "chown", "fchown", "fchownat", "lchown", "truncate", "ftruncate", "utimensat",
].join(",");

/** tend's own spec cache, and the null device: changes there are not the host's. */
const NOT_THE_HOSTS = /^(\/var\/cache\/tend\/|\/dev\/null$)/;

/** What a run of tend did to its host: the programs it started (argv) and the changes it made to files. */
export interface SideEffects {
  exitCode: number;
  output: string;
  commands: string[][];
  /** Each successful call that changes a file (an open for writing, a write to a file, a rename, …), as strace printed it. */
  changes: string[];
}

/**
 * Runs `tend ARGS` on `host` under `strace -ff -y`, which follows every thread and child process
 * and names the file behind each descriptor, and reports the programs started (tend's own node
 * left out) and every successful call that changes a file, except in tend's spec cache and on
 * `/dev/null`. Writes to pipes and sockets (output, a child's input) are not changes. `probes`
 * are paths a plan may open for writing without writing to them: runit's `supervise/ok` FIFO,
 * which `sv` itself opens to learn whether runsv runs.
 */
export async function traceSideEffects(host: TestHost, args: string[], probes: RegExp[] = []): Promise<SideEffects> {
  // One file per process and thread (-ff): no call is split across lines by another's.
  const dir = "/tmp/tend-side-effects";
  await host.mustSh(`rm -rf ${dir} && mkdir ${dir}`);
  // -D: tend is the process the exec waits for, not strace, which would wait for every process it
  // traces: a daemon an init script starts as tend's descendant (OpenRC's supervise-daemon) too.
  // Once tend has exited, strace is ended: it detaches from what still runs and closes its files
  // (-I 2: a signal ends it between two calls; with -o and a program it would ignore SIGTERM).
  const run = await host.exec(["strace", "-D", "-I", "2", "-ff", "-y", "-z", "-qq", "-s", "4096", "-e", "signal=none", "-e", `trace=${TRACED}`, "-o", `${dir}/trace`, NODE_IN_HOST, `${TEND_IN_HOST}/packages/cli/dist/bin.js`, ...args]);
  await host.mustSh("pkill -TERM -x strace; for i in $(seq 100); do pgrep -x strace >/dev/null || exit 0; sleep 0.1; done; echo strace did not end >&2; exit 1");
  const lines = (await host.mustSh(`cat ${dir}/trace.*`)).split("\n").filter(Boolean);
  const commands: string[][] = [];
  const changes: string[] = [];
  for (const line of lines) {
    const call = /^(\w+)\((.*)\) = (-?\d+)/.exec(line);
    if (!call) continue;
    const name = call[1]!;
    // -y names the working folder behind AT_FDCWD: not a path the call changes.
    const callArgs = call[2]!.replace(/AT_FDCWD<[^>]*>/g, "AT_FDCWD");
    if (name === "execve") {
      const argv = JSON.parse(`[${/^"[^"]*", \[(.*?)\], /.exec(callArgs)?.[1] ?? ""}]`) as string[];
      if (argv[0] !== NODE_IN_HOST) commands.push(argv);
      continue;
    }
    let paths: string[];
    if (/^p?writev?/.test(name)) {
      // A write's only path is its descriptor's; a pipe, socket or terminal names no file (`1<pipe:[…]>`).
      const target = /^\d+<([^>]*)>/.exec(callArgs)?.[1] ?? "";
      if (!target.startsWith("/") || /^\/dev\/(pts\/\d+|tty)$/.test(target)) continue;
      paths = [target];
    } else {
      paths = [...callArgs.matchAll(/"(\/[^"]*)"|<(\/[^>]*)>/g)].map((m) => m[1] ?? m[2]!);
    }
    if (name === "openat" && !/O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/.test(callArgs)) continue;
    if (name === "openat" && paths.length > 0 && paths.every((path) => probes.some((probe) => probe.test(path))) && !/O_CREAT|O_TRUNC/.test(callArgs)) continue;
    if (paths.length > 0 && paths.every((path) => NOT_THE_HOSTS.test(path))) continue;
    changes.push(line);
  }
  return { exitCode: run.exitCode, output: run.stdout + run.stderr, commands, changes };
}

/** A pure-plan proof: the spec to converge, the changed one to plan against, and what the init's queries look like. */
export interface PurePlanCase {
  spec: string;
  docs: string[];
  changed: string;
  changedText: string;
  /** The commands a plan may start (each must start with one); undefined: none at all. */
  queries?: RegExp;
  /** Paths a plan may open for writing without writing to them (see traceSideEffects). */
  probes?: RegExp[];
  /** Flags every command is run with (`--user alice`); none: root's own services. */
  flags?: string[];
}

/**
 * Applies `docs` at `spec`, then watches `plan` (converged), `plan --diff` (against `changed`)
 * and `observe`: each exits 0, changes no file, and starts only the init's queries. Then applies
 * `changed` under the same spy and returns what that apply did, for the suite to check that the
 * spy sees a change when there is one.
 */
export async function provePurePlans(host: TestHost, c: PurePlanCase): Promise<SideEffects> {
  const flags = c.flags ?? [];
  await host.writeFile(c.spec, spec(...c.docs));
  await host.expectTend(["apply", "-f", c.spec, ...flags]);
  await host.writeFile(c.changed, c.changedText);
  for (const args of [["plan", "-f", c.spec], ["plan", "-f", c.changed, "--diff"], ["observe", "-f", c.changed]].map((command) => [...command, ...flags])) {
    const seen = await traceSideEffects(host, args, c.probes);
    const what = `tend ${args.join(" ")}`;
    expect(seen.exitCode, seen.output).toBe(0);
    expect(seen.changes, what).toEqual([]);
    if (c.queries) {
      expect(seen.commands.length, what).toBeGreaterThan(0);
      expect(seen.commands.map((argv) => argv.join(" ")).filter((line) => !c.queries!.test(line)), what).toEqual([]);
    } else {
      expect(seen.commands, what).toEqual([]);
    }
  }
  const applied = await traceSideEffects(host, ["apply", "-f", c.changed, ...flags], c.probes);
  expect(applied.exitCode, applied.output).toBe(0);
  return applied;
}
