import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
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

/** NAME runs exactly one process now, and not `old`: it was restarted. */
export async function expectRestarted(host: TestHost, name: string, old: string | undefined): Promise<void> {
  const now = await livePids(host, name);
  expect(now).toHaveLength(1);
  expect(now[0]).not.toBe(old);
}

/** The `hup <pid>` lines under NAME: which process received each HUP. */
export async function hupsReceived(host: TestHost, name: string): Promise<string[]> {
  return hupPids(await demoLog(host, name));
}

/** The `hup <pid>` lines of a DEMO log: which process received each HUP. */
export function hupPids(log: string): string[] {
  return log
    .split("\n")
    .filter((line) => line.startsWith("hup "))
    .map((line) => line.split(" ")[1]!);
}

/** How an init's suite reads its forms: their services' names, and the pid the init supervises for each. */
export interface FormSupervision {
  /** The suite's host (started in its beforeAll, so read when a check runs). */
  host: () => TestHost;
  forms: ExecForm[];
  nameOf: (form: ExecForm) => string;
  /** The pid the init supervises for a form's service, as a string; "" (or "0") while it runs none. */
  supervisedPid: (form: ExecForm) => Promise<string>;
  /** What every process of a pipeline shares with the supervised shell that leads it. */
  pipelineShares: "process group" | "session";
}

/**
 * The process counts every supervising init's suite makes of its forms: each side of a form (a
 * pipeline's tail logs as NAME-tail) runs exactly one live process, the program is the supervised
 * one (a pipeline's processes all in the supervised shell's group or session), and nothing of an
 * earlier snapshot survives.
 */
export function formProcesses({ host: hostOf, forms, nameOf, supervisedPid, pipelineShares }: FormSupervision) {
  const sides = (form: ExecForm) => (form === "pipeline" ? [nameOf(form), `${nameOf(form)}-tail`] : [nameOf(form)]);
  /** Every live process of every side of a form (the process table, not the init). */
  const liveOf = async (form: ExecForm) => (await Promise.all(sides(form).map((name) => livePids(hostOf(), name)))).flat();
  const snapshot = async () => new Map(await Promise.all(forms.map(async (form) => [form, await liveOf(form)] as const)));
  /** The process group or session (as `pipelineShares` says) of a pid, as ps prints it. */
  const sharedOf = async (pid: string) => (await hostOf().mustSh(`ps -o ${pipelineShares === "session" ? "sess" : "pgid"}= -p ${pid}`)).trim();

  /** Waits until each side of each form (of `some`) runs exactly one live process, and the init supervises a pid other than `before`'s; resolves with the supervised pids. */
  async function oneEach(before: Map<ExecForm, string> = new Map(), some: ExecForm[] = forms): Promise<Map<ExecForm, string>> {
    const pids = new Map<ExecForm, string>();
    for (const form of some) {
      const pid = await hostOf().waitFor(
        async () => {
          const supervised = await supervisedPid(form);
          if (supervised === "" || supervised === "0" || supervised === before.get(form)) return undefined;
          const counts = await Promise.all(sides(form).map(async (name) => (await livePids(hostOf(), name)).length));
          return counts.every((count) => count === 1) ? supervised : undefined;
        },
        { timeoutMs: 20_000, what: `${nameOf(form)}: one live process per side under a new pid` },
      );
      pids.set(form, pid);
    }
    return pids;
  }

  /** Exactly one live process per side now (of each form of `some`), the supervised one for the program; and none of `old` alive. */
  async function expectOnlyNew(pids: Map<ExecForm, string>, old: Map<ExecForm, string[]>, some: ExecForm[] = forms): Promise<void> {
    for (const form of some) {
      const live = await liveOf(form);
      expect(live, nameOf(form)).toHaveLength(sides(form).length);
      expect(live.filter((pid) => old.get(form)!.includes(pid)), `${nameOf(form)}: survivors`).toEqual([]);
      if (form === "pipeline") for (const pid of live) expect(await sharedOf(pid), `one ${pipelineShares}`).toBe(pids.get(form));
      else expect(live, `${nameOf(form)}: the program is the supervised process`).toEqual([pids.get(form)]);
    }
  }

  return { sides, liveOf, snapshot, sharedOf, oneEach, expectOnlyNew };
}
