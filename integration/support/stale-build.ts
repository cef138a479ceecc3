import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { applySpec, planSpec } from "./apply-spec.js";
import { doc } from "./spec-documents.js";

const PROGRAM = "/opt/stale/bin/stale-sleep";
const service = (extra = "") => doc(`type: Service\nname: stale\nexec: ${PROGRAM} 100000\nrestart: always${extra}`);

/** The pids whose program is PROGRAM, and whether each runs a replaced (deleted) copy. */
async function processes(host: TestHost): Promise<{ pid: string; replaced: boolean }[]> {
  const script = `for p in /proc/[0-9]*; do e=$(readlink $p/exe 2>/dev/null) || continue; case "$e" in "${PROGRAM}"*) echo "\${p#/proc/} $e";; esac; done`;
  return (await host.mustSh(script))
    .split("\n")
    .filter(Boolean)
    .map((line) => ({ pid: line.split(" ")[0]!, replaced: line.endsWith(" (deleted)") }));
}

/** Replaces the program as a package upgrade does: a new file renamed over the old one. */
const upgrade = (host: TestHost) => host.mustSh(`cp /bin/sleep ${PROGRAM}.new && mv ${PROGRAM}.new ${PROGRAM}`);

/**
 * Stale builds on a real init (issue 18 item 2): a running service whose program is replaced on
 * disk is drift (observe and plan say so); apply restarts it (a new process running the new file) and the plan is clean;
 * with `restartOnUpgrade: false` it is left alone. Leaves the host as `base` alone declares it.
 */
export async function proveStaleBuildRestart(host: TestHost, specPath: string, base: string[]): Promise<void> {
  await host.mustSh(`mkdir -p /opt/stale/bin && cp /bin/sleep ${PROGRAM}`);
  await applySpec(host, specPath, [...base, service()]);
  const [before] = await processes(host);
  expect(before).toMatchObject({ replaced: false });
  await planSpec(host, specPath, 0);
  await upgrade(host);
  expect(await processes(host)).toEqual([{ pid: before!.pid, replaced: true }]);
  expect(await host.expectTend(["observe", "-f", specPath, "service:stale"])).toContain(`  drift    running a replaced ${PROGRAM}\n`);
  expect(await planSpec(host, specPath, 2)).toContain(`  ! service:stale drifted: running a replaced ${PROGRAM}\n      then  restart\n`);
  expect(await host.expectTend(["apply", "-f", specPath])).toContain("service:stale: changed, restarted");
  const after = await processes(host);
  expect(after).toHaveLength(1);
  expect(after[0]).toMatchObject({ replaced: false });
  expect(after[0]!.pid).not.toBe(before!.pid);
  await planSpec(host, specPath, 0);
  // opted out: the replaced program keeps running, and nothing is planned
  await applySpec(host, specPath, [...base, service("\nrestartOnUpgrade: false")]);
  await upgrade(host);
  await planSpec(host, specPath, 0);
  expect(await processes(host)).toEqual([{ pid: after[0]!.pid, replaced: true }]);
  await applySpec(host, specPath, base);
  expect(await processes(host)).toEqual([]);
}
