import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { applySpec, planSpec } from "./apply-spec.js";
import { livePids } from "./exec-forms.js";
import { doc, spec } from "./spec-documents.js";

const first = (greeting: string) => doc(`type: Service\nname: dep-first\nexec: /opt/demo/bin/demo dep-first\nrestart: always\nenv: {GREETING: ${greeting}}`);
/** Comes after dep-first; while /var/tmp/dep-broken exists it cannot start (and restart "no" leaves it down). */
const THEN = doc(
  `type: Service\nname: dep-then\nexec: ${JSON.stringify("[ -e /var/tmp/dep-broken ] && { echo dep-then cannot start; exit 1; }; exec /opt/demo/bin/demo dep-then")}\nrestart: "no"\nafter: [dep-first]`,
);

/**
 * On an init whose restart of a service restarts the running services that come after it (dinit's
 * `restart --force`, s6-rc-update), with DEMO installed as /opt/demo/bin/demo: plan names the
 * dependent under the restart of a changed service, apply says it restarted it with that service
 * and verifies it (it runs a new process), and when the dependent cannot come back, the apply
 * fails naming it. Once it can, the next apply starts it and the plan after
 * it is clean. Ends by applying `base` alone.
 */
export async function proveDependentsRestart(host: TestHost, path: string, base: string[]): Promise<void> {
  await applySpec(host, path, [...base, first("one"), THEN]);
  const [pid] = await livePids(host, "dep-then");
  await host.writeFile(path, spec(...base, first("two"), THEN));
  expect(await planSpec(host, path, 2)).toMatch(/~ service:dep-first\s+restart\n(.*\n)*?\s+also {2}restarts service:dep-then, which comes after it\n/);
  const output = await applySpec(host, path, [...base, first("two"), THEN]);
  expect(output).toContain("service:dep-then: restarted with service:dep-first, which it comes after");
  expect(output).toContain("service:dep-then: verified");
  const now = await livePids(host, "dep-then");
  expect(now).toHaveLength(1);
  expect(now[0]).not.toBe(pid);
  await host.writeFile("/var/tmp/dep-broken", "");
  const failed = await applySpec(host, path, [...base, first("three"), THEN], 1);
  expect(failed).toMatch(/^error TEND_VERIFY_FAILED: service:dep-then did not verify/m);
  await host.mustExec(["rm", "/var/tmp/dep-broken"]);
  await applySpec(host, path, [...base, first("three"), THEN]);
  await planSpec(host, path, 0);
  expect(await livePids(host, "dep-then")).toHaveLength(1);
  await applySpec(host, path, base);
}
