import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { livePids } from "./exec-forms.js";
import { spec } from "./spec-documents.js";

/** Writes `docs` as the spec at `path` on `host` and applies it as root; resolves with tend's output. */
export async function applySpec(host: TestHost, path: string, docs: string[], exitCode = 0): Promise<string> {
  await host.writeFile(path, spec(...docs));
  return host.expectTend(["apply", "-f", path], { exitCode });
}

/**
 * `tend plan -f path --detailed-exitcode ...extra` as root, which must exit `exitCode` (0 nothing
 * to do, 2 changes, 1 an error); resolves with tend's output.
 */
export function planSpec(host: TestHost, path: string, exitCode: number, ...extra: string[]): Promise<string> {
  return host.expectTend(["plan", "-f", path, "--detailed-exitcode", ...extra], { exitCode });
}

/**
 * The end of a proof on a real init: a plan of the spec finds nothing to do, then applying `base`
 * alone removes the service NAME, and no process of it is left.
 */
export async function expectCleanThenRemove(host: TestHost, path: string, base: string[], name: string): Promise<void> {
  await planSpec(host, path, 0);
  await applySpec(host, path, base);
  expect(await livePids(host, name)).toEqual([]);
}
