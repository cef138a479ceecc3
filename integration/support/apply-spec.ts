import type { TestHost } from "@tend/testkit/harness";
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
