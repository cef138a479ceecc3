import { readFileSync } from "node:fs";
import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { applySpec, expectCleanThenRemove } from "./apply-spec.js";
import { expectRestarted, livePids } from "./exec-forms.js";
import { doc, spec } from "./spec-documents.js";

/** Debian's libfaketime on the machine that runs the tests (.ci/run installs it), copied into the host. */
const FAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";
const IN_HOST = "/var/tmp/faketime";
const SETTLE_S = 4;

const service = (word: string) => doc(`type: Service\nname: clockstep\nexec: /opt/demo/bin/demo clockstep \"\" ${word}\nrestart: always\nverify:\n  settle: ${SETTLE_S}`);

/**
 * Reliability #22 on a real init: the wall clock steps a year forward, then a year back (as NTP or
 * an admin's `date -s` can) while apply verifies a service it started, then one it restarted. The
 * host's clock cannot be set in a container: libfaketime steps tend's wall clock and its
 * children's, the monotonic clock running on. Each apply still verifies the service (`verified`,
 * the same program running), its settle window neither cut short by a step forward nor stretched
 * by a step back.
 */
export async function proveVerifyAcrossClockStep(host: TestHost, specPath: string, base: string[]): Promise<void> {
  await host.mustSh(`mkdir -p ${IN_HOST}`);
  await host.writeFile(`${IN_HOST}/libfaketime.so.1`, readFileSync(FAKETIME));
  const env = { LD_PRELOAD: `${IN_HOST}/libfaketime.so.1`, FAKETIME_TIMESTAMP_FILE: `${IN_HOST}/clock`, FAKETIME_NO_CACHE: "1", FAKETIME_DONT_FAKE_MONOTONIC: "1" };
  let pid: string | undefined;
  for (const [word, step] of [
    ["one", "+365d"],
    ["two", "-365d"],
  ] as const) {
    await host.writeFile(specPath, spec(...base, service(word)));
    await host.mustSh(`echo +0 > ${IN_HOST}/clock`);
    const started = performance.now();
    const apply = host.tend(["apply", "-f", specPath], { env });
    // Inside the settle window: the service is up within a second here.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await host.mustSh(`echo ${step} > ${IN_HOST}/clock`);
    const result = await apply;
    const seconds = (performance.now() - started) / 1000;
    const output = result.stdout + result.stderr;
    expect(result.exitCode, output).toBe(0);
    expect(output, step).toContain(pid === undefined ? "service:clockstep: verified" : "service:clockstep: changed, restarted");
    // Forward, a wall-clock window would have closed at the step; back, it would be a year away.
    expect(seconds, step).toBeGreaterThan(SETTLE_S);
    expect(seconds, step).toBeLessThan(SETTLE_S + 15);
    if (pid !== undefined) await expectRestarted(host, "clockstep", pid);
    [pid] = await livePids(host, "clockstep");
    expect(pid).toBeDefined();
  }
  await host.mustSh(`rm -rf ${IN_HOST}`);
  await applySpec(host, specPath, [...base, service("two")]);
  await expectCleanThenRemove(host, specPath, base, "clockstep");
}
