import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { applySpec, planSpec } from "./apply-spec.js";
import { livePids } from "./exec-forms.js";
import { doc } from "./spec-documents.js";

/** Wanted running, but its program exits at once: the start does not verify, and stays in the ledger. */
const FAILING = doc('type: Service\nname: yields\nexec: /bin/false\nrestart: "no"');
/** The same service, now a program that would run, wanted stopped and disabled. */
const STOPPED = doc("type: Service\nname: yields\nexec: /opt/demo/bin/demo yields\ndesired:\n  state: stopped\n  enabled: false");

/**
 * The ledger yields to the spec on a real init: a start an earlier apply left pending (its service
 * did not verify) is not carried out once the spec wants the service stopped. An apply that
 * resumed it started a service its spec wants stopped, failed verification, and left it running.
 * Leaves the host as `base` alone declares it.
 */
export async function proveLedgerYieldsToSpec(host: TestHost, specPath: string, base: string[]): Promise<void> {
  const failed = await applySpec(host, specPath, [...base, FAILING], 1);
  expect(failed).toContain("service:yields did not verify");
  const stopped = await applySpec(host, specPath, [...base, STOPPED]);
  expect(stopped).not.toContain("still pending");
  expect(await livePids(host, "yields")).toEqual([]);
  await planSpec(host, specPath, 0);
  await applySpec(host, specPath, base);
}
