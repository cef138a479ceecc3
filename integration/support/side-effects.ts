import { NODE_IN_HOST, TEND_IN_HOST, type TestHost } from "@tend/testkit/harness";

/** The system calls that start a program or change a file, strace's names. */
const TRACED = [
  "execve", "openat", "creat", "rename", "renameat", "renameat2", "unlink", "unlinkat", "mkdir", "mkdirat", "rmdir",
  "symlink", "symlinkat", "link", "linkat", "chmod", "fchmod", "fchmodat", "chown", "fchown", "fchownat", "lchown",
  "truncate", "ftruncate", "utimensat",
].join(",");

/** What a run of tend did to its host: the programs it started (argv) and the changes it made to files. */
export interface SideEffects {
  exitCode: number;
  output: string;
  commands: string[][];
  /** Each successful call that changes a file (an open for writing, a rename, …), as strace printed it. */
  changes: string[];
}

/**
 * Runs `tend ARGS` on `host` under `strace -ff`, which follows every thread and child process, and
 * reports the programs started (tend's own node left out) and every successful call that changes
 * a file, except in tend's spec cache (`/var/cache/tend`) and on `/dev/null`.
 */
export async function traceSideEffects(host: TestHost, args: string[]): Promise<SideEffects> {
  // One file per process and thread (-ff): no call is split across lines by another's.
  const dir = "/tmp/tend-side-effects";
  await host.mustSh(`rm -rf ${dir} && mkdir ${dir}`);
  const run = await host.exec(["strace", "-ff", "-z", "-qq", "-s", "4096", "-e", "signal=none", "-e", `trace=${TRACED}`, "-o", `${dir}/trace`, NODE_IN_HOST, `${TEND_IN_HOST}/packages/cli/dist/bin.js`, ...args]);
  const lines = (await host.mustSh(`cat ${dir}/trace.*`)).split("\n").filter(Boolean);
  const commands: string[][] = [];
  const changes: string[] = [];
  for (const line of lines) {
    const call = /^(\w+)\((.*)\) = (-?\d+)/.exec(line);
    if (!call) continue;
    const [, name, callArgs] = call;
    if (name === "execve") {
      const argv = JSON.parse(`[${/^"[^"]*", \[(.*?)\], /.exec(callArgs!)?.[1] ?? ""}]`) as string[];
      if (argv[0] !== NODE_IN_HOST) commands.push(argv);
      continue;
    }
    if (name === "openat" && !/O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/.test(callArgs!)) continue;
    if (/"(\/var\/cache\/tend\/[^"]*|\/dev\/null)"/.test(callArgs!) && !/"\/(?!var\/cache\/tend\/|dev\/null")[^"]*"/.test(callArgs!)) continue;
    changes.push(line);
  }
  return { exitCode: run.exitCode, output: run.stdout + run.stderr, commands, changes };
}
