import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { applySpec, planSpec } from "./apply-spec.js";
import { livePids } from "./exec-forms.js";
import { doc } from "./spec-documents.js";

const link = (name: string, after?: string) => doc(`type: Service\nname: ${name}\nexec: /opt/demo/bin/demo ${name}\nrestart: always${after ? `\nafter: [${after}]` : ""}`);

/**
 * On an init where `after` is a hard dependency (dinit's `depends-on`, s6-rc's `dependencies.d`),
 * with DEMO installed as /opt/demo/bin/demo: a chain of three running services, the second after
 * the first and the third after the second, loses its first. The apply removes it and restarts
 * the second for its changed definition, which the init carries to the third; tend names and
 * verifies both, exactly one process of each runs, none of the first, and the next plan is clean.
 * (Found by the random walk, seed 1 step 12: dinit's `stop --force` of the removed service stopped
 * the other two, and the third, whose definition did not change, stayed stopped.) Ends by applying
 * `base` alone.
 */
export async function proveRemovedHeadOfChain(host: TestHost, path: string, base: string[]): Promise<void> {
  await applySpec(host, path, [...base, link("chain-head"), link("chain-mid", "chain-head"), link("chain-tail", "chain-mid")]);
  const [tail] = await livePids(host, "chain-tail");
  const output = await applySpec(host, path, [...base, link("chain-mid"), link("chain-tail", "chain-mid")]);
  expect(output).toContain("service:chain-head: removed");
  expect(output).toContain("service:chain-mid: verified");
  expect(output).toContain("service:chain-tail: restarted with service:chain-mid, which it comes after");
  expect(output).toContain("service:chain-tail: verified");
  expect(await livePids(host, "chain-head")).toEqual([]);
  expect(await livePids(host, "chain-mid")).toHaveLength(1);
  const now = await livePids(host, "chain-tail");
  expect(now).toHaveLength(1);
  expect(now[0]).not.toBe(tail);
  await planSpec(host, path, 0);
  await applySpec(host, path, base);
}
