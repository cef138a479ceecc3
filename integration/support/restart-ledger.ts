import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { applySpec, expectCleanThenRemove, planSpec } from "./apply-spec.js";
import { expectRestarted, livePids } from "./exec-forms.js";
import { doc } from "./spec-documents.js";

const conf = (content: string) => doc(`type: File\nname: ledger-conf\npath: /etc/ledger.conf\ncontent: "${content}\\n"`);
const OTHER = doc('type: File\nname: ledger-other\npath: /etc/ledger-other.conf\ncontent: "x\\n"');
const SERVICE = doc('type: Service\nname: ledger\nexec: /opt/demo/bin/demo ledger\nrestart: always\nrestartOn: ["file:ledger-conf"]\nrequires: ["file:ledger-other"]');

/**
 * The restart ledger on a real init (issue 18 item 1): a restartOn change whose restart a later
 * failure in the same apply stops (a folder where a file the service requires goes) stays
 * pending; the next plan names it, the next apply restarts the program, and then all is clean.
 * Leaves the host as `base` alone declares it.
 */
export async function proveRestartLedger(host: TestHost, specPath: string, base: string[]): Promise<void> {
  await applySpec(host, specPath, [...base, conf("one"), OTHER, SERVICE]);
  const [pid] = await livePids(host, "ledger");
  expect(pid).toBeDefined();
  await host.mustSh("rm /etc/ledger-other.conf && mkdir /etc/ledger-other.conf");
  const failed = await applySpec(host, specPath, [...base, conf("two"), OTHER, SERVICE], 1);
  expect(failed).toContain("service:ledger was not applied because file:ledger-other failed");
  expect(await host.readFile("/etc/ledger.conf")).toBe("two\n");
  expect(await livePids(host, "ledger")).toEqual([pid]);
  await host.mustSh("rmdir /etc/ledger-other.conf");
  const planned = await planSpec(host, specPath, 2);
  expect(planned).toContain("  ~ service:ledger  restart\n      reason  file:ledger-conf changed in an earlier apply; restart still pending\n");
  const resumed = await host.expectTend(["apply", "-f", specPath]);
  expect(resumed).toContain("service:ledger: changed, restarted");
  await expectRestarted(host, "ledger", pid);
  await expectCleanThenRemove(host, specPath, base, "ledger");
}
