import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { applySpec, planSpec } from "./apply-spec.js";
import { livePids } from "./exec-forms.js";
import { doc } from "./spec-documents.js";

/** A service's `desired`: its state and whether it is enabled. */
export type DesiredState = readonly ["running" | "stopped", boolean];

/**
 * The four combinations of state × enabled, each reached from each of the other three (all twelve
 * changes, each once: enabling a service that stays stopped is one), ending where they began.
 */
export const EVERY_DESIRED_STATE: readonly DesiredState[] = [
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

/** {@link EVERY_DESIRED_STATE} begun and ended at `start` instead: the same twelve changes, each once. */
export function everyDesiredStateFrom(start: DesiredState): DesiredState[] {
  const circuit = EVERY_DESIRED_STATE.slice(0, -1);
  const at = circuit.findIndex(([state, enabled]) => state === start[0] && enabled === start[1]);
  return [...circuit.slice(at), ...circuit.slice(0, at), circuit[at]!];
}

/** The init's own word on a service, as a suite reads it: what it says must be `state` and `enabled`. */
export type InitSays = (state: DesiredState[0], enabled: boolean) => Promise<void>;

/**
 * Drives the distro service NAME (a stand-in package's service, running DEMO as NAME) to `state` ×
 * `enabled` through the spec at `path`, beside `base`: see {@link converge}.
 */
export function convergeDistro(host: TestHost, path: string, base: string[], name: string, desired: DesiredState, initSays: InitSays): Promise<void> {
  return converge(host, path, base, `name: ${name}`, name, desired, initSays);
}

/** Drives tend's own service NAME (DEMO as NAME, `restart: always`) the same way. */
export function convergeService(host: TestHost, path: string, base: string[], name: string, desired: DesiredState, initSays: InitSays): Promise<void> {
  return converge(host, path, base, `name: ${name}\nexec: /opt/demo/bin/demo ${name}\nrestart: always`, name, desired, initSays);
}

/**
 * Applies the service document `fields` with `desired` through the spec at `path`, beside `base`.
 * The apply succeeds, the next plan is clean, the process table holds one program NAME when it is
 * running and none when stopped, and the init's own word (`initSays`, the suite's) agrees.
 */
async function converge(host: TestHost, path: string, base: string[], fields: string, name: string, [state, enabled]: DesiredState, initSays: InitSays): Promise<void> {
  await applySpec(host, path, [...base, doc(`type: Service\n${fields}\ndesired: {state: ${state}, enabled: ${enabled}}`)]);
  await planSpec(host, path, 0);
  expect(await livePids(host, name)).toHaveLength(state === "running" ? 1 : 0);
  await initSays(state, enabled);
}
