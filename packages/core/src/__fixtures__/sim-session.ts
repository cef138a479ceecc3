import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RecordingRunnerForCore } from "./recording-runner-for-core.js";
import { ProviderRegistry, Session, validateSpec, type ProviderDefinition, type Resource } from "../index.js";

/** A session over a temp folder standing for `/`, with the given providers and a recording runner. */
export async function simSession(resources: unknown[], providers: ProviderDefinition[], options: { root?: string; runner?: RecordingRunnerForCore; offline?: boolean } = {}) {
  const root = options.root ?? (await mkdtemp(join(tmpdir(), "tend-core-")));
  const registry = new ProviderRegistry([]);
  for (const provider of providers) registry.register(provider);
  const runner = options.runner ?? new RecordingRunnerForCore();
  const spec = { file: join(root, "tend.yaml"), resources: validateSpec(resources) as Resource[], providers: [] };
  const session = Session.fromParts({
    host: { facts: { name: "testhost", init: "runit", os: "linux", arch: "x64", user: "root", home: "/root" }, scope: { kind: "system" } },
    spec,
    registry,
    root,
    offline: options.offline ?? false,
    runner,
  });
  return { session, root, runner };
}
