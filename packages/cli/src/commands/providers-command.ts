import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { CliIo } from "../cli-io.js";
import type { CommandLine } from "../parse-command-line.js";

/** The providers found, their versions, what they serve and which serve this host. */
export async function providersCommand(line: CommandLine, io: CliIo): Promise<number> {
  const { ProviderRegistry, findSpec, detectInit, parseInit } = await import("@tend/core");
  let specDir = process.cwd();
  try {
    specDir = dirname(findSpec(line.spec));
  } catch {
    // no spec here: discover from the current folder
  }
  const toolDir = dirname(fileURLToPath(import.meta.url));
  const registry = new ProviderRegistry(specDir, resolve(toolDir, ".."));
  const init = line.init ? parseInit(line.init) : detectInit();
  const serving = new Set(
    init ? (["service", "timer"] as const).map((type) => registry.packageFor(init, type)?.packageName).filter(Boolean) : [],
  );
  if (line.json) {
    io.out(`${JSON.stringify({ init: init ?? null, providers: registry.found.map((p) => ({ name: p.packageName, version: p.version, apiVersion: p.manifest.apiVersion, inits: p.manifest.inits, types: p.manifest.types, origin: p.origin, dir: p.dir, servesThisHost: serving.has(p.packageName) })), problems: registry.problems }, null, 2)}\n`);
    return 0;
  }
  io.out(`host init: ${init ?? "unknown"}\n`);
  if (registry.found.length === 0) io.out("no providers found\n");
  for (const p of registry.found) {
    const mark = serving.has(p.packageName) ? io.paint.green("*") : " ";
    io.out(`${mark} ${p.packageName}@${p.version}  ${p.manifest.types.join(", ")} on ${p.manifest.inits.join(", ")}  (api ${p.manifest.apiVersion}, ${p.origin})\n`);
  }
  for (const problem of registry.problems) io.out(`${io.paint.red("!")} ${problem.packageName}: ${problem.message}\n`);
  if (init) io.out(`* serves this host\n`);
  return 0;
}
