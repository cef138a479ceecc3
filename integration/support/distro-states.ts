import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { applySpec, planSpec } from "./apply-spec.js";
import { livePids } from "./exec-forms.js";
import { doc } from "./spec-documents.js";

/** A distro service's `desired`: its state and whether it is enabled. */
export type DistroState = readonly ["running" | "stopped", boolean];

/**
 * The four combinations of state × enabled, each reached from each of the other three (all twelve
 * changes, each once: enabling a service that stays stopped is one), ending where they began.
 */
export const EVERY_DISTRO_STATE: readonly DistroState[] = [
  ["stopped", false],
  ["running", true],
  ["stopped", false],
  ["stopped", true],
  ["stopped", false],
  ["running", false],
  ["running", true],
  ["stopped", true],
  ["running", true],
  ["running", false],
  ["stopped", true],
  ["running", false],
  ["stopped", false],
];

/**
 * Drives the distro service NAME (a stand-in package's service, running DEMO as NAME) to `state` ×
 * `enabled` through the spec at `path`, beside `base`. The apply succeeds, the next plan is clean,
 * the process table holds one program when it is running and none when stopped, and the init's
 * own word (`initSays`, the suite's) agrees.
 */
export async function convergeDistro(
  host: TestHost,
  path: string,
  base: string[],
  name: string,
  [state, enabled]: DistroState,
  initSays: (state: DistroState[0], enabled: boolean) => Promise<void>,
): Promise<void> {
  await applySpec(host, path, [...base, doc(`type: Service\nname: ${name}\ndesired: {state: ${state}, enabled: ${enabled}}`)]);
  await planSpec(host, path, 0);
  expect(await livePids(host, name)).toHaveLength(state === "running" ? 1 : 0);
  await initSays(state, enabled);
}
