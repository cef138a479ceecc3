import type { TestHost } from "@tend/testkit/harness";
import { demoLog } from "./demo-daemon.js";

/**
 * The forms an admin writes `exec` in, each running a program that logs `start <pid>` and its
 * signals to /var/tmp/demo-NAME (DEMO, installed as /opt/demo/bin/demo, or an inline shell loop):
 * every init's suite runs each through kill, restart on change, restartOn, reloadOn with a signal
 * the program traps, desired stopped and removal, and counts the program's live processes.
 */
export const EXEC_FORMS = {
  /** The issue's own shape: a quoted `sh -c` whose script traps HUP and loops (the shell is the program). */
  shellLoop: (name: string) =>
    `/bin/sh -c 'echo "start $$" >> /var/tmp/demo-${name}; trap "echo hup $$ >> /var/tmp/demo-${name}" HUP; while :; do sleep 1; done'`,
  /** A simple command with a quoted argument holding a space and a `;` (nginx -g "daemon off;"). */
  quotedArgs: (name: string) => `/opt/demo/bin/demo ${name} "" "daemon off;"`,
  /** A script path. */
  scriptPath: (name: string) => `/opt/demo/bin/demo ${name}`,
  /** Real shell syntax whose last command can be exec'd. */
  shellThenExec: (name: string) => `cd /var/tmp && /opt/demo/bin/demo ${name}`,
  /** Real shell syntax that cannot be exec'd: two programs in a pipeline (the whole group must go). */
  pipeline: (name: string) => `/opt/demo/bin/demo ${name} | /opt/demo/bin/demo ${name}-tail`,
} as const;

export type ExecForm = keyof typeof EXEC_FORMS;

/** Every pid a program under NAME logged as started. */
export async function startedPids(host: TestHost, name: string): Promise<string[]> {
  return (await demoLog(host, name))
    .split("\n")
    .filter((line) => line.startsWith("start "))
    .map((line) => line.split(" ")[1]!);
}

/** The started pids still alive (and not zombies), asked of the process table, not the init. */
export async function livePids(host: TestHost, name: string): Promise<string[]> {
  const pids = await startedPids(host, name);
  if (pids.length === 0) return [];
  const script = pids.map((pid) => `s=$(cut -d' ' -f3 /proc/${pid}/stat 2>/dev/null) && [ "$s" != Z ] && echo ${pid}`).join("; ");
  return (await host.sh(`${script}; true`)).stdout.split("\n").filter(Boolean);
}

/** The `hup <pid>` lines under NAME: which process received each HUP. */
export async function hupsReceived(host: TestHost, name: string): Promise<string[]> {
  return (await demoLog(host, name))
    .split("\n")
    .filter((line) => line.startsWith("hup "))
    .map((line) => line.split(" ")[1]!);
}
