import type { CliIo } from "../cli-io.js";
import type { CommandLine } from "../command-line/parse-command-line.js";
import { CLI_PACKAGE_DIR, specCache } from "./open-session.js";

/** The providers found, their versions, what they serve and which serve this host. */
export async function providersCommand(line: CommandLine, io: CliIo): Promise<number> {
  const { Session, findSpec, openSpec, detectInit, parseInit } = await import("@tend/core/runtime");
  let specFile: string | undefined;
  try {
    specFile = findSpec(line.spec);
  } catch (error) {
    // no spec here: tend's own install only; a spec named with -f must exist
    if (line.spec !== undefined) throw error;
  }
  const registry = Session.discover(specFile ? await openSpec(specFile, await specCache()) : undefined, CLI_PACKAGE_DIR);
  const init = line.init ? parseInit(line.init, registry.inits) : detectInit(registry.inits, line.root);
  const serving = new Set(
    init ? (["service", "timer", "package"] as const).map((type) => registry.packageFor(init, type)?.packageName).filter(Boolean) : [],
  );
  io.result({
    init: init ?? null,
    providers: registry.found.map((p) => ({ name: p.packageName, version: p.version, apiVersion: p.manifest.apiVersion, inits: p.manifest.inits, types: p.manifest.types, fallback: p.manifest.fallback, declares: Object.keys(p.manifest.declares), origin: p.origin, dir: p.dir, servesThisHost: serving.has(p.packageName) })),
    problems: registry.problems,
  });
  io.out(`host init: ${init ?? "unknown"}\n`);
  if (registry.found.length === 0) io.out("no providers found\n");
  for (const p of registry.found) {
    const mark = serving.has(p.packageName) ? io.paint.green("*") : " ";
    const where = [...p.manifest.inits, ...(p.manifest.fallback ? ["any init without them"] : [])].join(", ") || "no init";
    const declares = Object.keys(p.manifest.declares);
    io.out(`${mark} ${p.packageName}@${p.version}  ${p.manifest.types.join(", ")} on ${where}${declares.length > 0 ? `; declares ${declares.join(", ")}` : ""}  (api ${p.manifest.apiVersion}, ${p.origin})\n`);
  }
  for (const problem of registry.problems) io.out(`${io.paint.red("!")} ${problem.packageName}: ${problem.message}\n`);
  if (init) io.out(`* serves this host\n`);
  return 0;
}
