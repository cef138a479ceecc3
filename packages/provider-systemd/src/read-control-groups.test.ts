import { execFile } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { LocalHostFiles, type ReadContext } from "@tend/core";
import { mainPidsFromCgroups, TEND_SERVICES } from "./main-pids-from-cgroups.js";
import { readControlGroups } from "./read-control-groups.js";

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;
const SYSTEM = { kind: "system" } as const;

/** A made-up machine: /proc/1/cgroup, the units' `cgroup.procs` under `slice`, each process's `stat`. */
async function fakeMachine(init: string, slice: string, groups: Record<string, string[]>, stats: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "tend-cgroups-"));
  const put = async (path: string, content: string) => {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  };
  await put("proc/1/cgroup", init);
  for (const [unit, pids] of Object.entries(groups)) await put(`${slice}/${unit}/cgroup.procs`, pids.map((pid) => `${pid}\n`).join(""));
  for (const [pid, stat] of Object.entries(stats)) await put(`proc/${pid}/stat`, `${stat}\n`);
  await mkdir(join(root, slice, "init.scope"), { recursive: true });
  return root;
}

const STATS = {
  "120": "120 (web) S 1 120 120 0 -1 4194560 0",
  "121": "121 (web-worker) S 120 120 120 0 -1 4194560 0",
  "130": "130 (a) b) c) S 1 130 130 0 -1 4194560 0", // a program named "a) b) c"
  "140": "140 (sh) S 1 140 140 0 -1 4194560 0",
  "141": "141 (sh) S 1 141 141 0 -1 4194560 0",
  "150": "150 (other) S 1 150 150 0 -1 4194560 0",
  // 160 is listed in its group but gone from /proc
};
const GROUPS = { "tend-web.service": ["120", "121"], "tend-odd.service": ["130"], "tend-two.service": ["140", "141"], "ssh.service": ["150"], "tend-gone.service": ["160"] };

const MACHINES = {
  "cgroup v2": { init: "0::/init.scope\n", slice: "sys/fs/cgroup/system.slice" },
  "cgroup v2, PID 1 in a nested group": { init: "0::/machine.slice/box/init.scope\n", slice: "sys/fs/cgroup/machine.slice/box/system.slice" },
  "hybrid (v2 at /sys/fs/cgroup/unified)": { init: "12:cpu,cpuacct:/\n1:name=systemd:/init.scope\n0::/init.scope\n", slice: "sys/fs/cgroup/unified/system.slice" },
  "cgroup v1": { init: "12:cpu,cpuacct:/\n1:name=systemd:/init.scope\n", slice: "sys/fs/cgroup/systemd/system.slice" },
};

describe("readControlGroups: the shell's reading, from this machine's files", () => {
  it.each(Object.entries(MACHINES))("%s: every process of each group with its parent, a program's `) ` and a process gone included", async (_, { init, slice }) => {
    const root = await fakeMachine(init, slice, GROUPS, STATS);
    const found = await readControlGroups([TEND_SERVICES, "ssh.service", "cron.service"], TEND_SERVICES, new LocalHostFiles(root, SYSTEM));
    expect(found?.map(({ unit, pid, ppid }) => `${unit} ${pid} ${ppid}`).sort()).toEqual(
      ["ssh.service 150 1", "tend-odd.service 130 1", "tend-two.service 140 1", "tend-two.service 141 1", "tend-web.service 120 1", "tend-web.service 121 120"].sort(),
    );
  });

  it("finds nothing where no hierarchy has system.slice (the shell prints nothing)", async () => {
    const root = await fakeMachine("0::/init.scope\n", "sys/fs/cgroup/elsewhere.slice", GROUPS, STATS);
    expect(await readControlGroups([TEND_SERVICES], TEND_SERVICES, new LocalHostFiles(root, SYSTEM))).toBeUndefined();
  });

  // The same made-up machine under the real shell: /proc and /sys replaced by it in a mount
  // namespace of the shell's own (this machine's are never touched), then both readings compared.
  it.runIf(isRoot).each(Object.entries(MACHINES))("%s: the main pids are those the shell finds", async (_, { init, slice }) => {
    const root = await fakeMachine(init, slice, GROUPS, STATS);
    const units = [TEND_SERVICES, "ssh.service", "cron.service"];
    const inFakeMachine = {
      run: async ({ argv }: { argv: string[] }) => {
        const enter = `mount --bind ${root}/proc /proc && mount --bind ${root}/sys /sys && exec "$@"`;
        const { stdout } = await run("unshare", ["-m", "sh", "-c", enter, "sh", ...argv]);
        return { exitCode: 0, stdout, stderr: "" };
      },
    };
    const byShell = await mainPidsFromCgroups(units, { scope: SYSTEM, run: inFakeMachine, files: new LocalHostFiles(root, SYSTEM) } as unknown as ReadContext);
    const direct = new LocalHostFiles(root, SYSTEM);
    Object.defineProperty(direct, "local", { value: true });
    const refusing = { run: () => Promise.reject(new Error("no process when reading this machine's own files")) };
    const directly = await mainPidsFromCgroups(units, { scope: SYSTEM, run: refusing, files: direct } as unknown as ReadContext);
    expect([...byShell].sort()).toEqual([
      ["ssh.service", 150],
      ["tend-odd.service", 130],
      ["tend-web.service", 120],
    ]);
    expect([...directly].sort()).toEqual([...byShell].sort());
  });
});
