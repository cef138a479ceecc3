import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { applySpec, planSpec } from "./apply-spec.js";
import { livePids } from "./exec-forms.js";
import { doc } from "./spec-documents.js";

const DELDEF = doc("type: Service\nname: deldef\nexec: /opt/demo/bin/demo deldef\nrestart: always");

/**
 * With DEMO installed as /opt/demo/bin/demo: an admin deletes the file that holds a running
 * service's definition (`definition` is where this init's provider writes it for `tend-deldef`).
 * Plan shows it deleted; apply writes it back and restarts the service, so the process runs what
 * the file says; the next plan is clean. (Found by the random walk, seed 7 step 14: dinit, which
 * holds the service loaded, counted it as not existing, so apply only "started" a running
 * service and the next plan found it running an older definition than its file.) Ends by
 * applying `base` alone.
 */
export async function proveDeletedDefinition(host: TestHost, path: string, base: string[], definition: string): Promise<void> {
  await applySpec(host, path, [...base, DELDEF]);
  const [before] = await livePids(host, "deldef");
  const text = await host.readFile(definition);
  // The rewrite must come later than the process started, as an admin's would (whole seconds).
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  await host.mustExec(["rm", definition]);
  expect(await planSpec(host, path, 2)).toContain(`! service:deldef drifted: ${definition} was deleted`);
  const output = await applySpec(host, path, [...base, DELDEF]);
  expect(output).toContain("service:deldef: verified");
  expect(await host.readFile(definition)).toBe(text);
  const after = await livePids(host, "deldef");
  expect(after).toHaveLength(1);
  expect(after[0]).not.toBe(before);
  await planSpec(host, path, 0);
  await applySpec(host, path, base);
}
